package nativedialog

import (
	goruntime "runtime"
	"strings"
	"testing"
)

// A message dialog shows a long statement cut, saying how much was left out; a short one whole.
func TestAMessageDialogCutsALongStatementAndSaysSo(t *testing.T) {
	if got := clipRunes("DELETE /v1/objects/Paper", approvalMessageChars); got != "DELETE /v1/objects/Paper" {
		t.Fatalf("a short statement became %q", got)
	}
	long := strings.Repeat("é", approvalMessageChars+10)
	got := clipRunes(long, approvalMessageChars)
	if !strings.HasPrefix(got, strings.Repeat("é", approvalMessageChars-1)+"… (11 more characters)") {
		t.Fatalf("cut to %q", got)
	}
}

// GTK takes a dialog's message as a printf format on Linux: a '%' in it is escaped there.
func TestPercentSignsSurviveGTKsFormat(t *testing.T) {
	want := "100% of rows"
	if goruntime.GOOS == "linux" {
		want = "100%% of rows"
	}
	if got := gtkSafe("100% of rows"); got != want {
		t.Fatalf("%q", got)
	}
}
