package approval

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Terminal is the Dialog of `app --headless` started from a terminal: it prints the question
// to out and reads y / yes / r (remember) from in. When in is not a terminal there is nobody
// to ask, and it is Refuse: a pipe that says "y" is not a person (ARCHITECTURE.md 3,
// Approvals). Reading stops when ctx ends; the line typed after that answers nothing.
func Terminal(in *os.File, out io.Writer) Dialog {
	if in == nil || !term.IsTerminal(int(in.Fd())) {
		return Refuse
	}
	lines := make(chan string)
	go func() {
		r := bufio.NewReader(in)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}()
	return DialogFunc(func(ctx context.Context, q Question) (Answer, error) {
		// A line typed before this question (say, a late answer to one whose request ended)
		// answers nothing: only what is typed after the prompt counts.
		for drained := false; !drained; {
			select {
			case _, ok := <-lines:
				if !ok {
					return Deny, ErrNobodyToAsk // the terminal's input ended: nobody is there
				}
			default:
				drained = true
			}
		}
		remember := ""
		if !q.Destructive {
			remember = ", r = yes and remember for this connection until App restarts"
		}
		fmt.Fprintf(out, "\n%s\n%s\n[y/N%s] ", q.Title, q.Message, remember)
		select {
		case <-ctx.Done():
			fmt.Fprintln(out, "\n(the request ended before an answer)")
			return Deny, ctx.Err()
		case l, ok := <-lines:
			if !ok {
				return Deny, ErrNobodyToAsk
			}
			return parseAnswer(l, !q.Destructive), nil
		}
	})
}

func parseAnswer(line string, mayRemember bool) Answer {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return Approve
	case "r", "remember":
		if mayRemember {
			return ApproveRemember
		}
	}
	return Deny
}
