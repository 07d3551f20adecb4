package logging

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"app/backend/redact"
)

// RedactHook scrubs secrets from every entry before a formatter sees it: the message and
// every field value (strings, errors, anything that prints). New installs it on the app
// logger, so secrets never reach app.log or stderr.
type RedactHook struct {
	// Redactor is the one that scrubs; nil means redact.Default().
	Redactor *redact.Redactor
}

// Levels implements logrus.Hook: every level.
func (h RedactHook) Levels() []logrus.Level { return logrus.AllLevels }

// Fire implements logrus.Hook. logrus hands hooks a copy of the entry's fields, so the
// caller's entry is left as it was.
func (h RedactHook) Fire(e *logrus.Entry) error {
	r := h.Redactor
	if r == nil {
		r = redact.Default()
	}
	e.Message = r.String(e.Message)
	for k, v := range e.Data {
		switch v := v.(type) {
		case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		case string:
			e.Data[k] = r.String(v)
		case error:
			e.Data[k] = r.Error(v)
		default:
			// Anything else is kept as it is unless its printed form held a secret; then
			// the redacted text replaces it.
			s := fmt.Sprint(v)
			if red := r.String(s); red != s {
				e.Data[k] = red
			}
		}
	}
	return nil
}

// Redact installs a RedactHook on a logger made elsewhere (tests, tools).
func Redact(log *logrus.Logger, r *redact.Redactor) { log.AddHook(RedactHook{Redactor: r}) }
