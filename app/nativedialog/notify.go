package nativedialog

import (
	"context"
	"fmt"

	"github.com/godbus/dbus/v5"
)

// Notify shows a desktop notification through the freedesktop notification service
// on the session bus (Linux and the BSDs). Where there is no session bus or no service it
// returns the error, and the caller only logs it: the native dialog is shown anyway.
func Notify(ctx context.Context, title, body string) error {
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("desktop notification: session bus: %w", err)
	}
	defer conn.Close()
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	call := obj.CallWithContext(ctx, "org.freedesktop.Notifications.Notify", 0,
		"App", uint32(0), "", title, body, []string{}, map[string]dbus.Variant{}, int32(-1))
	if call.Err != nil {
		return fmt.Errorf("desktop notification: %w", call.Err)
	}
	return nil
}
