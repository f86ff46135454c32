package events

import "strings"

// JetStream's API subjects, as nats-server serves them: what the embedded
// server's permissions grant, built from the stream names of streams.go.
// A stream or consumer argument may be Wildcard ("*", any one) or, where
// the subject may go on, Rest (">", anything after).
const (
	// JSAPIPrefix is the JetStream API's subject space.
	JSAPIPrefix = "$JS.API"
	// JSAccountInfo is the account's JetStream usage and limits.
	JSAccountInfo = JSAPIPrefix + ".INFO"
	// JSStreamNames lists the streams' names.
	JSStreamNames = JSAPIPrefix + ".STREAM.NAMES"
	// JSStreamList lists the streams with their info.
	JSStreamList = JSAPIPrefix + ".STREAM.LIST"
)

// Wildcards of a subject: one token, and every token from there on.
const (
	Wildcard = "*"
	Rest     = ">"
)

func jsAPI(tokens ...string) string { return JSAPIPrefix + "." + strings.Join(tokens, ".") }

// JSStreamInfo is where stream's info is asked for.
func JSStreamInfo(stream string) string { return jsAPI("STREAM", "INFO", stream) }

// JSStreamMsgGet is where one message of stream is read by sequence or
// subject.
func JSStreamMsgGet(stream string) string { return jsAPI("STREAM", "MSG", "GET", stream) }

// JSDirectGet is where a message of stream is read directly from a
// replica; Rest covers every stream and the last-by-subject form.
func JSDirectGet(stream string) string { return jsAPI("DIRECT", "GET", stream) }

// JSConsumerNames lists the names of stream's consumers.
func JSConsumerNames(stream string) string { return jsAPI("CONSUMER", "NAMES", stream) }

// JSConsumerList lists stream's consumers with their info.
func JSConsumerList(stream string) string { return jsAPI("CONSUMER", "LIST", stream) }

// JSConsumerInfo is where consumer's info on stream is asked for.
func JSConsumerInfo(stream, consumer string) string {
	return jsAPI("CONSUMER", "INFO", stream, consumer)
}

// JSConsumerCreate is where a consumer of stream is created, of any name
// and filter: $JS.API.CONSUMER.CREATE.<stream>.>.
func JSConsumerCreate(stream string) string { return jsAPI("CONSUMER", "CREATE", stream, Rest) }

// JSConsumerNext is where a pull consumer of stream is asked for its next
// messages.
func JSConsumerNext(stream, consumer string) string {
	return jsAPI("CONSUMER", "MSG", "NEXT", stream, consumer)
}

// JSConsumerDelete is where consumer of stream is deleted.
func JSConsumerDelete(stream, consumer string) string {
	return jsAPI("CONSUMER", "DELETE", stream, consumer)
}
