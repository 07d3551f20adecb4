package host

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/sirupsen/logrus"
)

// newHCLogger is the hclog.Logger go-plugin gets: every line it logs (its own, and each
// JSON line of the plugin's stderr, parsed at its level) goes to log.
func newHCLogger(log logrus.FieldLogger) hclog.Logger {
	l := hclog.NewInterceptLogger(&hclog.LoggerOptions{Name: "plugin", Output: io.Discard, Level: hclog.Trace})
	l.RegisterSink(logSink{log: log})
	return l
}

// logSink forwards hclog lines to logrus.
type logSink struct{ log logrus.FieldLogger }

func (s logSink) Accept(_ string, level hclog.Level, msg string, args ...any) {
	fields := logrus.Fields{}
	for i := 0; i+1 < len(args); i += 2 {
		k := fmt.Sprint(args[i])
		if k == "timestamp" || k == "@module" || k == "@caller" {
			continue // logrus stamps its own time; the module is the plugin field
		}
		if k == "plugin" {
			k = "program" // go-plugin's name for the executable; "plugin" is the plugin's name
		}
		fields[k] = args[i+1]
	}
	e := s.log.WithFields(fields)
	switch level {
	case hclog.Trace, hclog.Debug:
		e.Debug(msg)
	case hclog.Warn:
		e.Warn(msg)
	case hclog.Error:
		e.Error(msg)
	default:
		e.Info(msg)
	}
}

// lineLogger is a writer that logs each line written to it (what a plugin prints on its
// os.Stdout or os.Stderr while serving, which go-plugin forwards) at info level.
func lineLogger(log logrus.FieldLogger) io.Writer { return &lineWriter{log: log} }

type lineWriter struct {
	log logrus.FieldLogger
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		i := bytes.IndexByte(w.buf.Bytes(), '\n')
		if i < 0 {
			break
		}
		line := strings.TrimRight(string(w.buf.Next(i+1)), "\r\n")
		if line != "" {
			w.log.Info(line)
		}
	}
	return len(p), nil
}
