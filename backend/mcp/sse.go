package mcp

// The reading side of the endpoint's event streams (the writing side is sseStream,
// progress.go): a client that relays the endpoint (backend/bridge) reads each request's own
// text/event-stream with SSEReader, and reads newline-delimited JSON-RPC with ReadLine.

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseDataField starts an event's data line; sseStream writes it followed by one space.
const sseDataField = "data:"

// ErrLineTooLarge is ReadLine's answer to a line over its limit.
var ErrLineTooLarge = errors.New("mcp: line too large")

// ReadLine reads one line without its line break (\n or \r\n), at most max bytes. A longer
// line is read to its end and dropped with ErrLineTooLarge, so the next call reads the line
// after it. At the end of the input the last line (possibly empty) comes with io.EOF.
func ReadLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, ErrLineTooLarge
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// SSEReader reads the events of a text/event-stream as the SSE standard says: an event is
// its data lines (one space after "data:" dropped, lines joined by \n) ended by a blank line;
// comments (the endpoint's keep-alives) and other fields are skipped, as is an event without
// data.
type SSEReader struct {
	r   *bufio.Reader
	max int
}

// NewSSEReader reads r with lines of at most max bytes.
func NewSSEReader(r io.Reader, max int) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the data of the next event. It returns io.EOF when the stream ends, dropping
// an event the stream ended in the middle of, and ErrLineTooLarge for a line over the limit.
func (s *SSEReader) Next() ([]byte, error) {
	var data []byte
	seen := false
	for {
		line, err := ReadLine(s.r, s.max)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if v, ok := bytes.CutPrefix(line, []byte(sseDataField)); ok {
			if seen {
				data = append(data, '\n')
			}
			seen = true
			data = append(data, bytes.TrimPrefix(v, []byte(" "))...)
		} else if len(line) == 0 && seen && err == nil {
			return data, nil
		}
		if err != nil {
			return nil, io.EOF
		}
	}
}
