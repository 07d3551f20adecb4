package app

import (
	"github.com/sirupsen/logrus"
	wailslogger "github.com/wailsapp/wails/v2/pkg/logger"
)

// wailsLog sends Wails' own log lines to the backend's logrus logger, so the window and
// the backend write one log.
type wailsLog struct{ l *logrus.Entry }

var _ wailslogger.Logger = wailsLog{}

func (w wailsLog) Print(m string)   { w.l.Info(m) }
func (w wailsLog) Trace(m string)   { w.l.Trace(m) }
func (w wailsLog) Debug(m string)   { w.l.Debug(m) }
func (w wailsLog) Info(m string)    { w.l.Info(m) }
func (w wailsLog) Warning(m string) { w.l.Warn(m) }
func (w wailsLog) Error(m string)   { w.l.Error(m) }

// Fatal logs at error level and does not exit: Wails calls it for failures it then returns
// from wails.Run, and main decides what to do with that error.
func (w wailsLog) Fatal(m string) { w.l.Error(m) }

// wailsLevel maps the logrus level to Wails' level.
func wailsLevel(l logrus.Level) wailslogger.LogLevel {
	switch {
	case l >= logrus.TraceLevel:
		return wailslogger.TRACE
	case l >= logrus.DebugLevel:
		return wailslogger.DEBUG
	case l >= logrus.InfoLevel:
		return wailslogger.INFO
	case l >= logrus.WarnLevel:
		return wailslogger.WARNING
	default:
		return wailslogger.ERROR
	}
}
