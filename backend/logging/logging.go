// Package logging sets up the one logrus logger the backend shares: text on stderr when
// headless (so a terminal or a supervisor sees it), a size-rotated file in the config dir for
// the desktop app (which has no terminal). stdout is never used: in app-mcp and plugins it
// carries the protocol. Every entry goes through package redact first (RedactHook), so
// secrets never reach either.
package logging

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sirupsen/logrus"
	"gopkg.in/natefinch/lumberjack.v2"

	"app/backend/redact"
)

// Options choose where the log goes.
type Options struct {
	// Headless logs to Stderr; otherwise to <Dir>/logs/app.log, rotated.
	Headless bool
	Dir      string
	// Level is a logrus level name; "" means info. $APP_LOG_LEVEL overrides it.
	Level  string
	Stderr io.Writer
	// JSON writes headless entries as JSON lines rather than text: with the CLI's --json,
	// everything on stderr is for machines, the error included.
	JSON bool
	// Redactor scrubs secrets from every entry (RedactHook); nil means redact.Default().
	Redactor *redact.Redactor
}

// New returns the logger and a close function that flushes the file.
func New(opts Options) (*logrus.Logger, func() error, error) {
	log := logrus.New()
	level := opts.Level
	if env := os.Getenv("APP_LOG_LEVEL"); env != "" {
		level = env
	}
	if level == "" {
		level = "info"
	}
	lv, err := logrus.ParseLevel(level)
	if err != nil {
		return nil, nil, fmt.Errorf("log level %q: use panic, fatal, error, warn, info, debug or trace", level)
	}
	log.SetLevel(lv)
	Redact(log, opts.Redactor)
	if opts.Headless {
		w := opts.Stderr
		if w == nil {
			w = os.Stderr
		}
		log.SetOutput(w)
		log.SetFormatter(&logrus.TextFormatter{FullTimestamp: true})
		if opts.JSON {
			log.SetFormatter(&logrus.JSONFormatter{})
		}
		return log, func() error { return nil }, nil
	}
	logDir := filepath.Join(opts.Dir, "logs")
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("log dir %s: %w", logDir, err)
	}
	file := &lumberjack.Logger{
		Filename:   filepath.Join(logDir, "app.log"),
		MaxSize:    10, // megabytes
		MaxBackups: 5,
		MaxAge:     30, // days
	}
	log.SetOutput(file)
	log.SetFormatter(&logrus.JSONFormatter{})
	return log, file.Close, nil
}
