package replay

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// Asker puts a run's questions to the person: each is shown on Out with a
// token of its own, never sent anywhere, and answered with `reprise runs
// answer RUN` (from that terminal or any that reaches the daemon), where
// the person types the token. The answer is sealed under a key only the
// token gives (AskKey), so another program on the daemon's NATS reads
// ciphertext and cannot answer. One question at a time: rows filed in
// parallel wait their turn. Ask may be called from several goroutines.
type Asker struct {
	// Conn is the run's connection to the daemon's NATS.
	Conn *nats.Conn
	// Out is the terminal the person reads the questions on.
	Out io.Writer
	mu  sync.Mutex
}

// What a run replies to an answer it did not take, unsealed: it says no
// more than that, whoever sent it.
const (
	NotAcceptedReply = "not accepted: type the token the asking run printed for this question (each question has its own)"
	UnsealedReply    = "this run takes only sealed answers: update reprise, then answer with `reprise runs answer RUN` and type the token the run printed"
)

// Ask shows q with a new token, waits for its answer until ctx ends, and
// says on Out how many answers it refused (session.RunOptions.Ask).
func (a *Asker) Ask(ctx context.Context, q Question) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	token := NewAskToken()
	key, err := DeriveAskKey(q.RunID, token)
	if err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	var refused atomic.Int64
	warned := false
	defer func() {
		if n := refused.Load(); n > 0 {
			fmt.Fprintf(a.Out, "  row %d, step %d: %d answers refused (a wrong token, an older reprise, or another program)\n", q.Row, q.Step, n)
		}
	}()
	answer, err := WaitAnswer(ctx, a.Conn, q, AnswerWait{Key: key, NotAccepted: NotAcceptedReply, Unsealed: UnsealedReply,
		Ready: func() {
			fmt.Fprintf(a.Out, "\nrow %d, step %d asks: %s\n  answer with: reprise runs answer %s   and type the token %s   (the row waits %s)\n",
				q.Row, q.Step, q.Prompt, q.RunID, token, q.Wait.Round(time.Second))
		},
		Refused: func(onQuestion bool) {
			refused.Add(1)
			if onQuestion && !warned {
				warned = true
				fmt.Fprintf(a.Out, "  row %d, step %d: an answer without this question's token was refused; still waiting\n", q.Row, q.Step)
			}
		},
	})
	if err == nil {
		fmt.Fprintf(a.Out, "  row %d, step %d: answered\n", q.Row, q.Step)
	}
	return answer, err
}
