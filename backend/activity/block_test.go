package activity

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A block reads back every field as written, with the ids and prev hashes of a chain, and
// its hashes verify: the bytes stored are the bytes hashed.
func FuzzBlockRoundTrip(f *testing.F) {
	f.Add("claude-code", "2.1.0", "token:t1", "{Get{Article{title}}}", "ok", int64(12))
	f.Add("a \"quoted\" \\ name", "\x00\x1f\x7f", "bridge:ünïcödé", "line\nbreak\ttab\r", "-33007", int64(-1))
	f.Add("\xff\xfe not UTF-8", "\u2028\u2029", "", "", "", int64(0))
	f.Fuzz(func(t *testing.T, client, version, principal, statement, outcome string, ms int64) {
		// The writer stores valid UTF-8 (redactEntryCached); what it redacts is FuzzRedact's.
		valid := func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
		var batch []*Entry
		for i := range 3 {
			e := &Entry{Time: t0.Add(time.Duration(i) * time.Microsecond), ClientName: valid(client), ClientVersion: valid(version),
				Principal: valid(principal), Statement: valid(statement), Outcome: valid(outcome), DurationMS: ms, Method: "tools/call", Name: "execute_query"}
			if i == 1 {
				e.Trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
			}
			batch = append(batch, e)
		}
		prev := GenesisHash
		for i, e := range batch {
			e.ID, e.PrevHash, e.rawTime = int64(7+i), prev, formatTime(e.Time)
			e.Hash = computeHash(e)
			prev = e.Hash
		}
		b := block{firstID: 7, lastID: 9, prevHash: GenesisHash, entries: string(appendBlock(nil, batch)), written: true,
			minTime: batch[0].rawTime, maxTime: batch[2].rawTime}
		if _, broken := (&walker{prevID: 6, prevHash: GenesisHash}).block(b); broken != nil {
			t.Fatalf("a block as written does not verify: %+v\n%s", broken, b.entries)
		}
		got, err := b.decode()
		if err != nil {
			t.Fatalf("%v: %s", err, b.entries)
		}
		w := walker{prevID: 6, prevHash: GenesisHash}
		for i := range got {
			want := *batch[i]
			if got[i] != want {
				t.Fatalf("entry %d read back\n%+v\nwant\n%+v", i, got[i], want)
			}
			if broken := w.step(got[i]); broken != nil {
				t.Fatalf("%+v", broken)
			}
		}
	})
}

// The blocks are readable with SQLite's own JSON functions, as the package says.
func TestBlocksReadWithSQLiteJSON(t *testing.T) {
	l := openLog(t, Options{})
	writeBlocks(t, l, 2, 1)
	rows, err := l.db.QueryContext(context.Background(),
		`SELECT blocks.first_id + e.key, e.value ->> 'statement', e.value ->> 'client' FROM blocks, json_each(blocks.entries) AS e ORDER BY blocks.first_id, e.key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id int
		var statement, client string
		if err := rows.Scan(&id, &statement, &client); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{string(rune('0' + id)), statement, client}, " "))
	}
	if strings.Join(got, ", ") != "1 q1 claude-code, 2 q2 claude-code, 3 q3 claude-code" {
		t.Fatalf("read %q", got)
	}
}

// The hand-written decoder agrees with encoding/json on everything it accepts; what it does
// not accept goes to encoding/json.
func FuzzDecodeEntries(f *testing.F) {
	e := Entry{Time: t0, ClientName: "claude-code", Statement: "{Get{Article(where:{path:[\"title\"],operator:Like,valueText:\"a\\\\b\"}){title}}}\n\tü",
		DurationMS: 12, Hash: GenesisHash, Trace: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
	f.Add(string(appendBlock(nil, []*Entry{&e, &e})))
	f.Add(`[]`)
	f.Add(`[{}]`)
	f.Add(`[{"time":"a\u00e9\u0041\/","ms":-3,"hash":"x"}]`)
	f.Add(`[{"ms":012}]`)
	f.Add(`[{"ms":1.5}]`)
	f.Add(`[{"time":"\ud83d\ude00"}]`)
	f.Add(`[{"Time":"x"}]`)
	f.Add(`[{"time":null}]`)
	f.Add(`[{"time":"a","time":"b"}]`)
	f.Add(`[{"time":"\xff"}]`)
	f.Add(` [{"time":"a"}]`)
	f.Add(`[{"ms":99999999999999999999}]`)
	f.Fuzz(func(t *testing.T, s string) {
		fast, ok := decodeFast(s)
		if !ok {
			return
		}
		var slow []storedEntry
		if err := json.Unmarshal([]byte(s), &slow); err != nil {
			t.Fatalf("the fast path read %q, encoding/json refuses it: %v", s, err)
		}
		if len(fast) != len(slow) {
			t.Fatalf("%q: %d entries, encoding/json %d", s, len(fast), len(slow))
		}
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("%q: entry %d\n%+v\nencoding/json\n%+v", s, i, fast[i], slow[i])
			}
		}
	})
}
