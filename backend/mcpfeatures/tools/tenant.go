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

// activation is how to activate the call's tenant, for the end of a message.
func (t target) activation() string {
	return fmt.Sprintf("to activate tenant %s, call %s with the query PUT /v1/schema/%s/tenants [{\"name\":%q,\"activityStatus\":\"ACTIVE\"}] (the user confirms it), or activate it in App",
		t.Tenant, NameConfirmDestructive, t.Table, t.Tenant)
}

// explainTenant is the tool's error for err: FromError's, with how to activate the tenant
// added when the call names a tenant the driver found not active.
func (t target) explainTenant(err error) error {
	err = FromError(err)
	var te *mcp.ToolError
	if t.Tenant == "" || !errors.As(err, &te) || te.Source != string(driver.KindInactiveTenant) {
		return err
	}
	return &mcp.ToolError{Code: te.Code, Message: te.Message + "; " + t.activation(), Source: te.Source}
}

// explainRows is the line a row tool's text ends with when a row failed because the call's
// tenant is not active (how to activate it), or "".
func (t target) explainRows(results []driver.RowResult) string {
	if t.Tenant == "" {
		return ""
	}
	for _, r := range results {
		if r.Status == driver.RowFailed && r.Kind == driver.KindInactiveTenant {
			return "\n" + t.activation()
		}
	}
	return ""
}
