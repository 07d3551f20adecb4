package tools

import (
	"errors"
	"fmt"

	"app/backend/driver"
	"app/backend/mcp"
)

// A tenant that is not ACTIVE (INACTIVE, OFFLOADED) is neither read nor written: the driver
// says so (driver.KindInactiveTenant), but not which tenant, nor how an AI client can
// activate it. A table tool that named the tenant adds that, once: the statement to run with
// confirm_destructive_operation, which asks the user first (issue 23: a cold tenant is
// explained, and activating it asks first).

// activation is how to activate the call's tenant, for the end of a message: the driver's
// statement for it (driver.Words.ActivateTenant) through the tool that asks the user, or App.
func (t target) activation(w *driver.Words) string {
	stmt := w.TenantActivation(t.Table, t.Tenant)
	if stmt == "" {
		return fmt.Sprintf("activate tenant %s in App", t.Tenant)
	}
	return fmt.Sprintf("to activate tenant %s, call %s with the query %s (the user confirms it), or activate it in App", t.Tenant, NameConfirmDestructive, stmt)
}

// explainTenant is the tool's error for err: FromError's, with how to activate the tenant
// added when the call names a tenant the driver found not active.
func (t target) explainTenant(err error, w *driver.Words) error {
	err = FromError(err)
	var te *mcp.ToolError
	if t.Tenant == "" || !errors.As(err, &te) || te.Source != string(driver.KindInactiveTenant) {
		return err
	}
	return &mcp.ToolError{Code: te.Code, Message: te.Message + "; " + t.activation(w), Source: te.Source}
}

// explainRows is the line a row tool's text ends with when a row failed because the call's
// tenant is not active (how to activate it), or "".
func (t target) explainRows(results []driver.RowResult, w *driver.Words) string {
	if t.Tenant == "" {
		return ""
	}
	for _, r := range results {
		if r.Status == driver.RowFailed && r.Kind == driver.KindInactiveTenant {
			return "\n" + t.activation(w)
		}
	}
	return ""
}
