package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// askAtTerminal is the one prompt for a CLI change that raises what AI clients may do (a
// readWrite or fullAccess token, more access for a connection). It writes lines and "[y/N]"
// to stderr and reads the answer from stdin. asked is false when stdin is not a terminal:
// there is nobody to ask, and the caller refuses the change naming --yes. A pipe that says
// "y" is not a person.
func askAtTerminal(cmd *cobra.Command, lines ...string) (asked, yes bool, err error) {
	in, ok := cmd.InOrStdin().(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return false, false, nil
	}
	for i, l := range lines {
		if i == len(lines)-1 {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s [y/N] ", l)
		} else {
			fmt.Fprintln(cmd.ErrOrStderr(), l)
		}
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && err != io.EOF {
		return true, false, fmt.Errorf("read the answer: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, true, nil
	}
	return true, false, nil
}

// confirm asks on the terminal, the last line being the question; without one the caller
// must pass --yes.
func confirm(cmd *cobra.Command, lines ...string) error {
	asked, yes, err := askAtTerminal(cmd, lines...)
	switch {
	case err != nil:
		return err
	case !asked:
		return errors.New("this needs confirmation: run it in a terminal, or pass --yes")
	case !yes:
		return errors.New("not confirmed: nothing was changed")
	}
	return nil
}
