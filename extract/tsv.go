package extract

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"
)

// Word is one word tesseract recognized.
type Word struct {
	Text string
	// Box is the word's place in the frame, in pixels.
	Box image.Rectangle
	// Conf is tesseract's confidence, 0 to 100.
	Conf float64
	// Block, Par and Line number the word's block, paragraph and line, in
	// reading order; a line is identified by all three.
	Block, Par, Line int
}

// OCRResult is the text of one frame, word by word in reading order.
type OCRResult struct {
	Words []Word
}

// Lines returns the text line by line: words that share a block, paragraph
// and line number, joined by spaces.
func (r OCRResult) Lines() []string {
	var lines []string
	var cur strings.Builder
	for i, w := range r.Words {
		if i > 0 {
			p := r.Words[i-1]
			if p.Block == w.Block && p.Par == w.Par && p.Line == w.Line {
				cur.WriteByte(' ')
			} else {
				lines = append(lines, cur.String())
				cur.Reset()
			}
		}
		cur.WriteString(w.Text)
	}
	if len(r.Words) > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// Text returns the lines joined by newlines.
func (r OCRResult) Text() string { return strings.Join(r.Lines(), "\n") }

// tsvFields are the columns of tesseract's tsv output, in order.
var tsvFields = []string{"level", "page_num", "block_num", "par_num", "line_num", "word_num",
	"left", "top", "width", "height", "conf", "text"}

const (
	wordLevel = 5
	// maxCoord bounds every number so that a box cannot overflow an int.
	maxCoord = 1 << 24
	// maxTSVLine is far longer than any real line: one word and its box.
	maxTSVLine = 64 << 10
)

// ParseTSV reads tesseract's tsv output (`tesseract IMAGE stdout tsv`) and
// keeps the words (level 5 rows with text). An error names the bad line but
// never quotes it, since the line holds recognized text.
func ParseTSV(r io.Reader) (OCRResult, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxTSVLine)
	var res OCRResult
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if n == 1 && strings.HasPrefix(line, "level\t") {
			continue
		}
		if line == "" {
			continue
		}
		w, ok, err := parseRow(line)
		if err != nil {
			return OCRResult{}, fmt.Errorf("tsv line %d: %w", n, err)
		}
		if ok {
			res.Words = append(res.Words, w)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return OCRResult{}, fmt.Errorf("tsv line %d: longer than %d bytes", n+1, maxTSVLine)
		}
		return OCRResult{}, fmt.Errorf("tsv line %d: %w", n+1, err)
	}
	return res, nil
}

// parseRow parses one data row; ok is false for rows that are not words.
func parseRow(line string) (w Word, ok bool, err error) {
	f := strings.Split(line, "\t")
	// A row with no text may lose its trailing empty column.
	if len(f) == len(tsvFields)-1 {
		f = append(f, "")
	}
	if len(f) != len(tsvFields) {
		return Word{}, false, fmt.Errorf("want %d tab-separated fields, got %d", len(tsvFields), len(f))
	}
	var num [10]int
	for i := range num {
		v, err := strconv.Atoi(f[i])
		if err != nil || v < 0 || v > maxCoord {
			return Word{}, false, fmt.Errorf("field %s: want a whole number from 0 to %d", tsvFields[i], maxCoord)
		}
		num[i] = v
	}
	conf, err := strconv.ParseFloat(f[10], 64)
	if err != nil || math.IsNaN(conf) || conf < -1 || conf > 100 {
		return Word{}, false, errors.New("field conf: want a number from -1 to 100")
	}
	text := strings.TrimSpace(f[11])
	if num[0] != wordLevel || text == "" {
		return Word{}, false, nil
	}
	left, top, width, height := num[6], num[7], num[8], num[9]
	return Word{
		Text:  text,
		Box:   image.Rect(left, top, left+width, top+height),
		Conf:  conf,
		Block: num[2], Par: num[3], Line: num[4],
	}, true, nil
}
