package connections

import (
	"fmt"
	"strings"
	"testing"
)

var (
	accesses = []string{AccessBlocked, AccessReadOnly, AccessReadWrite}
	policies = []string{PolicyAlwaysAsk, PolicyAskForWrites, PolicyNeverForWrites}
)

func conn(access, policy string) Connection {
	return Connection{Type: "weaviate", Name: "c", ExternalAccess: access, AIPolicy: policy}
}

// Issue 11: per connection, external access and AI policy decide together what AI clients
// may do; AIRights is the one place that combines them. One row per combination.
func TestAIRights(t *testing.T) {
	for _, tc := range []struct {
		access, policy string
		want           Rights
	}{
		{AccessBlocked, PolicyAlwaysAsk, Rights{Refused, Refused}},
		{AccessBlocked, PolicyAskForWrites, Rights{Refused, Refused}},
		{AccessBlocked, PolicyNeverForWrites, Rights{Refused, Refused}},
		{AccessReadOnly, PolicyAlwaysAsk, Rights{Ask, Refused}},
		{AccessReadOnly, PolicyAskForWrites, Rights{Allowed, Refused}},
		{AccessReadOnly, PolicyNeverForWrites, Rights{Allowed, Refused}},
		{AccessReadWrite, PolicyAlwaysAsk, Rights{Ask, Ask}},
		{AccessReadWrite, PolicyAskForWrites, Rights{Allowed, Ask}},
		{AccessReadWrite, PolicyNeverForWrites, Rights{Allowed, Refused}},
		// Defaults: a value left out reads as readWrite / askForWrites.
		{"", "", Rights{Allowed, Ask}},
		{AccessReadOnly, "", Rights{Allowed, Refused}},
		{"", PolicyNeverForWrites, Rights{Allowed, Refused}},
		// A value nobody knows (a hand-edited file) gives the fewest rights it could mean.
		{"sometimes", PolicyAskForWrites, Rights{Refused, Refused}},
		{AccessReadWrite, "whenever", Rights{Ask, Refused}},
		{AccessReadOnly, "whenever", Rights{Ask, Refused}},
	} {
		name := fmt.Sprintf("external access %q with AI policy %q: reads %s, writes %s", tc.access, tc.policy, tc.want.Read, tc.want.Write)
		t.Run(name, func(t *testing.T) {
			c := conn(tc.access, tc.policy)
			got := AIRights(c)
			if got != tc.want {
				t.Fatalf("AIRights = %+v, want %+v", got, tc.want)
			}
			if VisibleToAI(c) != got.Visible() || got.Visible() != (got.Read != Refused) {
				t.Fatalf("VisibleToAI %v disagrees with AIRights %+v", VisibleToAI(c), got)
			}
		})
	}
	t.Run("a write is never allowed without the user's approval, whatever the combination", func(t *testing.T) {
		for _, a := range accesses {
			for _, p := range policies {
				if AIRights(conn(a, p)).Write == Allowed {
					t.Errorf("%s/%s allows writes unasked", a, p)
				}
			}
		}
	})
	t.Run("a blocked connection is invisible whatever its AI policy", func(t *testing.T) {
		for _, p := range policies {
			if VisibleToAI(conn(AccessBlocked, p)) {
				t.Errorf("blocked/%s is visible", p)
			}
		}
	})
}

// Issue 11, "an agent must not raise its own rights": RaisedRights names every way a change
// lets AI clients do more, or with fewer approvals; lowering is never a raise.
func TestRaisedRights(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after Connection
		raised        string // "" when the change is no raise
	}{
		{"blocked -> readOnly raises: the connection becomes visible", conn(AccessBlocked, PolicyAskForWrites), conn(AccessReadOnly, PolicyAskForWrites), "visible"},
		{"blocked -> readWrite raises reads and writes", conn(AccessBlocked, PolicyAskForWrites), conn(AccessReadWrite, PolicyAskForWrites), "writes: refused"},
		{"readOnly -> readWrite raises writes", conn(AccessReadOnly, PolicyAskForWrites), conn(AccessReadWrite, PolicyAskForWrites), "writes: refused -> approved"},
		{"readWrite -> readOnly lowers", conn(AccessReadWrite, PolicyAskForWrites), conn(AccessReadOnly, PolicyAskForWrites), ""},
		{"readOnly -> blocked lowers", conn(AccessReadOnly, PolicyAskForWrites), conn(AccessBlocked, PolicyAskForWrites), ""},
		{"alwaysAsk -> askForWrites raises: reads stop asking", conn(AccessReadWrite, PolicyAlwaysAsk), conn(AccessReadWrite, PolicyAskForWrites), "reads: approved by the user one by one -> run without asking"},
		{"askForWrites -> alwaysAsk lowers", conn(AccessReadWrite, PolicyAskForWrites), conn(AccessReadWrite, PolicyAlwaysAsk), ""},
		{"askForWrites -> neverForWrites lowers: writes become refused", conn(AccessReadWrite, PolicyAskForWrites), conn(AccessReadWrite, PolicyNeverForWrites), ""},
		{"neverForWrites -> askForWrites raises writes", conn(AccessReadWrite, PolicyNeverForWrites), conn(AccessReadWrite, PolicyAskForWrites), "writes: refused -> approved"},
		{"neverForWrites -> alwaysAsk raises writes on a read-write connection", conn(AccessReadWrite, PolicyNeverForWrites), conn(AccessReadWrite, PolicyAlwaysAsk), "writes: refused -> approved"},
		{"alwaysAsk -> neverForWrites raises reads", conn(AccessReadWrite, PolicyAlwaysAsk), conn(AccessReadWrite, PolicyNeverForWrites), "reads: approved by the user one by one -> run without asking"},
		{"neverForWrites -> alwaysAsk lowers on a read-only connection (writes are refused either way)", conn(AccessReadOnly, PolicyNeverForWrites), conn(AccessReadOnly, PolicyAlwaysAsk), ""},
		{"neverForWrites -> askForWrites on a read-only connection changes nothing", conn(AccessReadOnly, PolicyNeverForWrites), conn(AccessReadOnly, PolicyAskForWrites), ""},
		{"any AI policy change on a blocked connection changes nothing", conn(AccessBlocked, PolicyAlwaysAsk), conn(AccessBlocked, PolicyAskForWrites), ""},
		{"readOnly+askForWrites -> readWrite+neverForWrites raises nothing (writes stay refused)", conn(AccessReadOnly, PolicyAskForWrites), conn(AccessReadWrite, PolicyNeverForWrites), ""},
		{"lowering reads does not make up for raising writes", conn(AccessReadWrite, PolicyNeverForWrites), conn(AccessReadWrite, PolicyAlwaysAsk), "writes"},
		{"a connection saved without the fields is read as readWrite/askForWrites", conn("", ""), conn(AccessReadWrite, PolicyAskForWrites), ""},
		{"an unchanged connection raises nothing", conn(AccessReadWrite, PolicyAskForWrites), conn(AccessReadWrite, PolicyAskForWrites), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(RaisedRights(tc.before, tc.after), "; ")
			if tc.raised == "" && got != "" {
				t.Fatalf("raised %q, want no raise", got)
			}
			if tc.raised != "" && !strings.Contains(got, tc.raised) {
				t.Fatalf("raised %q, want it to name %q", got, tc.raised)
			}
		})
	}
	t.Run("over every pair of combinations a change is a raise exactly when reads or writes gain", func(t *testing.T) {
		for _, ba := range accesses {
			for _, bp := range policies {
				for _, aa := range accesses {
					for _, ap := range policies {
						b, a := AIRights(conn(ba, bp)), AIRights(conn(aa, ap))
						want := a.Read > b.Read || a.Write > b.Write
						if got := len(RaisedRights(conn(ba, bp), conn(aa, ap))) > 0; got != want {
							t.Errorf("%s/%s -> %s/%s: raise %v, want %v", ba, bp, aa, ap, got, want)
						}
					}
				}
			}
		}
	})
	t.Run("external access alone is ordered blocked < readOnly < readWrite under every AI policy", func(t *testing.T) {
		for _, p := range policies {
			for i := range accesses {
				for j := range accesses {
					raised := len(RaisedRights(conn(accesses[i], p), conn(accesses[j], p))) > 0
					// Under neverForWrites readOnly and readWrite grant the same.
					same := p == PolicyNeverForWrites && i > 0 && j > 0
					if want := j > i && !same; raised != want {
						t.Errorf("%s: %s -> %s raise %v, want %v", p, accesses[i], accesses[j], raised, want)
					}
				}
			}
		}
	})
}
