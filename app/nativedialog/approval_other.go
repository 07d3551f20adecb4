//go:build !(linux && cgo && (desktop || dev))

package nativedialog

import (
	"context"

	"app/backend/approval"
)

// approvalDialog is nil where this build has no dialog of its own for approvals (a build
// without the Wails desktop tags, or another platform): Dialogs.Approve then asks
// with the message dialog and a cut statement.
var approvalDialog func(ctx context.Context, q approval.Question) (bool, error)
