package weaviate

import (
	"reflect"
	"testing"
	"time"

	"app/backend/driver"
)

// A backup, a restore and their cancels written in the editor are the person's alone (issue
// 40, item 5): Classify says so however the path is spelled as the server routes it, and
// reading them stays a read.
func TestBackupStatementsAreThePersonsAlone(t *testing.T) {
	for _, c := range []struct {
		text             string
		personOnly, read bool
	}{
		{`POST /v1/backups/filesystem {"id":"x"}`, true, false},
		{`POST /v1/backups/filesystem/x/restore {}`, true, false},
		{`DELETE /v1/backups/filesystem/x`, true, false},
		{`DELETE /v1/backups/filesystem/x/restore`, true, false},
		{`POST /backups/filesystem {"id":"x"}`, true, false},
		{`POST /v1/%62ackups/filesystem {"id":"x"}`, true, false},
		{`POST /v1//Backups/filesystem/ {"id":"x"}`, true, false},
		{`PUT /v1/backups/filesystem {"id":"x"}`, true, false},
		{`POST /v1/export/s3 {"id":"x"}`, true, false},
		{`GET /v1/backups/filesystem`, false, true},
		{`GET /v1/backups/filesystem/x/restore`, false, true},
		{`POST /v1/objects {"class":"Backups"}`, false, false},
		{`POST /v1/backupsfoo {}`, false, false},
	} {
		t.Run(c.text, func(t *testing.T) {
			cl, err := Classify(c.text)
			if err != nil || cl.PersonOnly != c.personOnly || cl.Write() == c.read {
				t.Fatalf("%+v %v", cl, err)
			}
		})
	}
}

// Weaviate's backup answers read as the contract says: its phases in the host's words (one it
// may add later still running, so a caller keeps asking), year 1 as "not yet", its size in GiB
// as bytes (1.35.2 reports none in a status read), no classes as none.
func TestABackupAnswerReadsAsTheContractSays(t *testing.T) {
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	for _, c := range []struct {
		name string
		in   backupAnswer
		want driver.Backup
	}{
		{"1.35.2's status of a running backup", backupAnswer{ID: "a", Status: "STARTED", StartedAt: "2026-12-07T12:56:51.520Z", CompletedAt: "0001-01-01T00:00:00.000Z", Path: "/b/a"},
			driver.Backup{ID: "a", Backend: "filesystem", State: driver.BackupRunning, Phase: "STARTED", Started: at("2026-12-07T12:56:51.520Z"), Where: "/b/a"}},
		{"1.39.0's status of a finished backup, with its size", backupAnswer{ID: "a", Status: "SUCCESS", StartedAt: "2026-12-07T12:56:55.276Z", CompletedAt: "2026-12-07T12:56:57.281Z", Size: 0.000001559033989906311},
			driver.Backup{ID: "a", Backend: "filesystem", State: driver.BackupSucceeded, Phase: "SUCCESS", Started: at("2026-12-07T12:56:55.276Z"), Completed: at("2026-12-07T12:56:57.281Z"), Bytes: 1674}},
		{"a list item", backupAnswer{ID: "b", Classes: []string{"Beta", "Alpha"}, Status: "CANCELED", Error: "context canceled"},
			driver.Backup{ID: "b", Backend: "filesystem", Tables: []string{"Beta", "Alpha"}, State: driver.BackupCancelled, Phase: "CANCELED", Error: "context canceled"}},
		{"a failed restore", backupAnswer{ID: "c", Status: "FAILED", Classes: []string{}},
			driver.Backup{ID: "c", Backend: "filesystem", State: driver.BackupFailed, Phase: "FAILED"}},
		{"1.39.0's cancelling is still running", backupAnswer{ID: "d", Status: "CANCELLING"},
			driver.Backup{ID: "d", Backend: "filesystem", State: driver.BackupRunning, Phase: "CANCELLING"}},
		{"a phase of a later release is still running", backupAnswer{ID: "e", Status: "VERIFYING"},
			driver.Backup{ID: "e", Backend: "filesystem", State: driver.BackupRunning, Phase: "VERIFYING"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.in.backup("filesystem"); !reflect.DeepEqual(*got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", *got, c.want)
			}
		})
	}
	if id := newBackupID(time.Date(2026, 12, 7, 13, 4, 5, 0, time.UTC)); id != "app-20261207-130405" {
		t.Fatalf("made id %q", id)
	}
}
