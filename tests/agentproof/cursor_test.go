package agentproof

import (
	"encoding/base64"
)

// listMethods are the paginated methods (SPEC B "Pagination"), with the field of their items.
var listMethods = []struct{ method, field string }{
	{"tools/list", "tools"}, {"resources/list", "resources"}, {"prompts/list", "prompts"}, {"resources/templates/list", "resourceTemplates"},
}

// madeUpCursor is a cursor laid out as the app's own (method, principal, offset, MAC) for
// principal, with a MAC nobody holds the key of.
func madeUpCursor(method, principal string) string {
	payload := append(append([]byte(method+"\x00"+principal+"\x00"), 0, 0, 0, 0, 0, 0, 0), 1)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(make([]byte, 16))
}

// cursorCases: a cursor one principal holds, redeemed by another (SPEC B "Pagination": a
// cursor is opaque and bound to what issued it; a bad one is -32602).
//
// A real cursor: each principal (each token level, the token allowed one connection, app-mcp's
// bridge principal) lists every page of each list method; every nextCursor it is given is
// redeemed by every other principal (-32602) and by itself (the next page). The app's lists
// are shorter than a page today (15 tools, 1 resource, 6 prompts, 4 templates against 50 a
// page), so no nextCursor is issued: the case then asserts that each principal's list came
// whole in one page, and the cursors it can cross are the made-up ones below (the core's
// own tests, backend/mcp/cursor_test.go, move real ones between principals of a server whose
// lists are longer).
func cursorCases(h *harness) []attackCase {
	var cases []attackCase
	add := func(name string, run func(a *attempt)) { cases = append(cases, attackCase{name: name, run: run}) }
	for _, l := range listMethods {
		add("every principal's pages of "+l.method+", each nextCursor redeemed by every other principal and app-mcp", func(a *attempt) {
			b := a.bridge(false, nil)
			principals := []string{tokFull, tokFull2, tokRW, tokRO, tokLite, "app-mcp"}
			list := func(who string, cursor string) reply {
				params := map[string]any{}
				if cursor != "" {
					params["cursor"] = cursor
				}
				if who == "app-mcp" {
					return b.call(l.method, params, nil)
				}
				return a.call(req{token: who, method: l.method, params: params})
			}
			issued := 0
			for _, owner := range principals {
				cursor := ""
				for page := 0; ; page++ {
					r := list(owner, cursor)
					items, ok := r.result[l.field].([]any)
					if !ok {
						a.Fatalf("%s for %s: %s", l.method, owner, r)
					}
					if len(items) > 50 {
						a.Errorf("%s for %s: %d items in one page, the spec's page is 50", l.method, owner, len(items))
					}
					next, _ := r.result["nextCursor"].(string)
					if next == "" {
						break
					}
					issued++
					for _, other := range principals {
						if other == owner {
							continue
						}
						if r := list(other, next); r.code() != -32602 {
							a.Errorf("%s's cursor of %s redeemed by %s: want -32602: %s", owner, l.method, other, r)
						}
					}
					cursor = next
				}
			}
			if issued == 0 {
				a.Logf("%s: every principal's list fits one page; no real cursor was issued to cross", l.method)
			}
		})
		add("app-mcp redeems a cursor made up for a fullAccess token on "+l.method, func(a *attempt) {
			b := a.bridge(false, nil)
			if r := b.call(l.method, map[string]any{"cursor": madeUpCursor(l.method, "token:"+a.h.tokenIDs[tokFull])}, nil); r.code() != -32602 {
				a.Fatalf("want -32602: %s", r)
			}
		})
		add("a cursor made up for another principal on "+l.method, func(a *attempt) {
			if r := a.call(req{token: tokRO, method: l.method, params: map[string]any{"cursor": madeUpCursor(l.method, "token:"+a.h.tokenIDs[tokFull])}}); r.code() != -32602 {
				a.Fatalf("want -32602: %s", r)
			}
		})
		add("a cursor made up for app-mcp's bridge principal on "+l.method+", used by a fullAccess token", func(a *attempt) {
			if r := a.call(req{token: tokFull, method: l.method, params: map[string]any{"cursor": madeUpCursor(l.method, "bridge")}}); r.code() != -32602 {
				a.Fatalf("want -32602: %s", r)
			}
		})
	}
	return cases
}
