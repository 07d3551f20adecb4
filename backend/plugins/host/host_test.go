package host

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/plugins/grpcdriver"
)

func TestThePluginStartsOnFirstUseAndServesEveryConnection(t *testing.T) {
	h, hook := newTestHost(t, "plugin", nil)
	slow := newSlowWeaviate(t)
	if _, ok := h.Running("weaviate"); ok {
		t.Fatal("a plugin runs before any use")
	}
	a := openConnected(t, h, slow.settings())
	first, ok := h.Running("weaviate")
	if !ok || first.PID == 0 || first.Version != "1.0.0-test" {
		t.Fatalf("after the first use: %#v %v", first, ok)
	}
	b := openConnected(t, h, slow.settings())
	second, _ := h.Running("weaviate")
	if second.PID != first.PID || second.Connections != 2 {
		t.Fatalf("the second connection did not reuse the process: %#v then %#v", first, second)
	}
	if !h.InUse("weaviate") {
		t.Fatal("InUse is false with two open connections")
	}
	if v := a.(interface{ ServerVersion() string }).ServerVersion(); v != "1.35.2" {
		t.Fatalf("server version %q", v)
	}
	_ = a.Close()
	_ = b.Close()
	if h.InUse("weaviate") {
		t.Fatal("InUse is true once every connection is closed")
	}
	if e := hook.find("driver plugin started"); e == nil || e.Data["pid"] != first.PID {
		t.Fatalf("no start line with the pid in the host log: %v", e)
	}
}

func TestPluginLogLinesReachTheHostLog(t *testing.T) {
	h, hook := newTestHost(t, "plugin", nil)
	d := openConnected(t, h, newSlowWeaviate(t).settings())
	// The driver logs a row without uuid that it skips (SPEC A Endpoints, rule 1): a real
	// log line of the driver inside the plugin.
	rs, err := d.Update(context.Background(), "Slow", []driver.Row{{Values: map[string]any{"title": "x"}}})
	if err != nil || len(rs) != 1 || rs[0].Status != driver.RowSkipped {
		t.Fatalf("Update: %#v %v", rs, err)
	}
	var e *logrus.Entry
	eventually(t, 5*time.Second, "the plugin's skip line in the host log", func() bool {
		e = hook.find("row without uuid skipped")
		return e != nil
	})
	if e.Level != logrus.WarnLevel {
		t.Errorf("level %s, want warning", e.Level)
	}
	for k, want := range map[string]any{"plugin": "weaviate", "connection": t.Name(), "collection": "Slow", "action": "update"} {
		if e.Data[k] != want {
			t.Errorf("field %s = %v, want %v (all: %v)", k, e.Data[k], want, e.Data)
		}
	}
}

func TestAKilledPluginIsReportedAndStartedAgain(t *testing.T) {
	h, hook := newTestHost(t, "plugin", nil)
	slow := newSlowWeaviate(t)
	d := openConnected(t, h, slow.settings())
	before, _ := h.Running("weaviate")
	if err := syscall.Kill(before.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Run("open connections report Connection failed: driver stopped", func(t *testing.T) {
		var err error
		eventually(t, 5*time.Second, "Ping to fail", func() bool {
			err = d.Ping(context.Background())
			return err != nil
		})
		if err.Error() != "Connection failed: driver stopped" || !driver.IsKind(err, driver.KindConnection) || !errors.Is(err, grpcdriver.ErrDriverStopped) {
			t.Fatalf("Ping after SIGKILL: %v", err)
		}
		if _, err := d.ListTables(context.Background()); err == nil || err.Error() != "Connection failed: driver stopped" {
			t.Fatalf("ListTables after SIGKILL: %v", err)
		}
	})
	t.Run("the exit reaches the host log", func(t *testing.T) {
		eventually(t, 5*time.Second, "go-plugin's exit line", func() bool { return hook.find("plugin process exited") != nil })
	})
	t.Run("the next use starts it again", func(t *testing.T) {
		// go-plugin logs the exit before it marks the client exited: wait for the host to know
		// (a use in between still meets the stopped process), not for the log line.
		eventually(t, 5*time.Second, "the host to see the process stopped", func() bool {
			_, running := h.Running("weaviate")
			return !running
		})
		d2 := openConnected(t, h, slow.settings())
		after, ok := h.Running("weaviate")
		if !ok || after.PID == before.PID {
			t.Fatalf("no new process: before %#v, after %#v", before, after)
		}
		if _, err := d2.ListTables(context.Background()); err != nil {
			t.Fatalf("ListTables on the new process: %v", err)
		}
	})
}

// alive reports whether pid is a live process (a zombie that no one reaped yet is dead).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// The state follows the parenthesized command name.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestAKilledAppLeavesNoPluginProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to watch processes")
	}
	slow := newSlowWeaviate(t)
	for _, c := range []struct {
		name string
		env  string
	}{
		{"with the parent-death signal (Linux)", ""},
		{"with only the plugin's own parent watch (every OS)", "APP_TEST_NO_PDEATHSIG=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), helperEnv+"=host", "APP_TEST_WEAVIATE="+slow.addr(), "APP_TEST_DIR="+t.TempDir())
			if c.env != "" {
				cmd.Env = append(cmd.Env, c.env)
			}
			cmd.Stderr = testWriter{t}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := readPID(t, bufio.NewReader(out))
			if !alive(pid) {
				t.Fatalf("plugin %d is not running", pid)
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			eventually(t, 10*time.Second, "the plugin process to exit after its app was killed", func() bool { return !alive(pid) })
		})
	}
}

func TestAPluginOfAnotherProtocolIsAClearError(t *testing.T) {
	app, oldest := grpcdriver.ProtocolVersion, grpcdriver.OldestProtocol
	cases := []struct{ rule, mode, want string }{
		{"a plugin made for a newer app: update the app", "plugin-protocol-newer",
			fmt.Sprintf("Connection failed: the weaviate driver plugin 1.0.0-test speaks plugin protocol %d and this app speaks %d to %d: update the app to use it, or install a plugin version made for this app", app+1, oldest, app)},
		// The upgrade path of docs/plugins.md: a plugin installed before the oldest protocol
		// the app runs does not start, and says how to get the one that does.
		{"a plugin older than every protocol this app runs: update the plugin", "plugin-protocol-older",
			fmt.Sprintf("Connection failed: the weaviate driver plugin 1.0.0-test speaks plugin protocol %d and this app speaks %d to %d: update the plugin (app plugin update weaviate, or Settings, Plugins)", oldest-1, oldest, app)},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			h, _ := newTestHost(t, c.mode, nil)
			_, err := h.Open(context.Background(), "weaviate", driver.DefaultSettings(), "")
			var pe *ProtocolError
			if !errors.As(err, &pe) || !driver.IsKind(err, driver.KindConnection) {
				t.Fatalf("got %v", err)
			}
			if err.Error() != c.want {
				t.Fatalf("message:\n got %q\nwant %q", err, c.want)
			}
			if _, ok := h.Running("weaviate"); ok {
				t.Fatal("a mismatched plugin is left running")
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	t.Run("a plugin that exits at start", func(t *testing.T) {
		h, hook := newTestHost(t, "plugin-exits", nil)
		_, err := h.Open(context.Background(), "weaviate", driver.DefaultSettings(), "")
		want := "Connection failed: the weaviate driver plugin 1.0.0-test did not start: it exited at start (see the app log)"
		if err == nil || err.Error() != want {
			t.Fatalf("got %v", err)
		}
		eventually(t, 5*time.Second, "the plugin's stderr in the host log", func() bool {
			return hook.find("the plugin cannot start: a broken install") != nil
		})
	})
	t.Run("a plugin that is not installed keeps the resolver's error as cause", func(t *testing.T) {
		notInstalled := errors.New("the weaviate plugin is not installed: install it with app plugin install weaviate")
		h, _ := newTestHost(t, "plugin", func(o *Options) {
			o.Resolve = func(string) (Binary, error) { return Binary{}, notInstalled }
		})
		_, err := h.Open(context.Background(), "weaviate", driver.DefaultSettings(), "")
		if !errors.Is(err, notInstalled) || !driver.IsKind(err, driver.KindConnection) || err.Error() != "Connection failed: "+notInstalled.Error() {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a program that is no plugin", func(t *testing.T) {
		h, _ := newTestHost(t, "plugin", func(o *Options) {
			o.Command = func(Binary) *exec.Cmd { return exec.Command("/bin/echo", "hello") }
		})
		_, err := h.Open(context.Background(), "weaviate", driver.DefaultSettings(), "")
		if err == nil || !strings.Contains(err.Error(), "did not start: it is not a driver plugin of this app") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestStopIdleAndClose(t *testing.T) {
	slow := newSlowWeaviate(t)
	t.Run("Stop ends the process; its connections report driver stopped", func(t *testing.T) {
		h, _ := newTestHost(t, "plugin", nil)
		d := openConnected(t, h, slow.settings())
		pr, _ := h.Running("weaviate")
		h.Stop("weaviate")
		if _, ok := h.Running("weaviate"); ok {
			t.Fatal("still running after Stop")
		}
		if err := d.Ping(context.Background()); err == nil || err.Error() != "Connection failed: driver stopped" {
			t.Fatalf("Ping after Stop: %v", err)
		}
		eventually(t, 5*time.Second, "the stopped process to exit", func() bool { return !alive(pr.PID) })
	})
	t.Run("an idle plugin stops after IdleTimeout", func(t *testing.T) {
		h, hook := newTestHost(t, "plugin", func(o *Options) { o.IdleTimeout = 200 * time.Millisecond })
		d := openConnected(t, h, slow.settings())
		pr, _ := h.Running("weaviate")
		_ = d.Close()
		eventually(t, 10*time.Second, "the idle plugin to stop", func() bool {
			_, ok := h.Running("weaviate")
			return !ok && !alive(pr.PID)
		})
		if hook.find("stopping the idle driver plugin") == nil {
			t.Fatal("no idle stop line in the log")
		}
	})
	t.Run("an open connection keeps it running", func(t *testing.T) {
		h, _ := newTestHost(t, "plugin", func(o *Options) { o.IdleTimeout = 100 * time.Millisecond })
		d := openConnected(t, h, slow.settings())
		time.Sleep(300 * time.Millisecond) // three idle periods with a connection open
		if err := d.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
	})
	t.Run("Close stops everything and refuses later opens", func(t *testing.T) {
		h, _ := newTestHost(t, "plugin", nil)
		openConnected(t, h, slow.settings())
		pr, _ := h.Running("weaviate")
		_ = h.Close()
		eventually(t, 5*time.Second, "the plugin to exit on Close", func() bool { return !alive(pr.PID) })
		_, err := h.Open(context.Background(), "weaviate", slow.settings(), "")
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("Open after Close: %v", err)
		}
	})
}

func TestARunningPluginHoldsItsVersionLock(t *testing.T) {
	dir := t.TempDir()
	h, _ := newTestHost(t, "plugin", func(o *Options) { o.Resolve = testResolver(dir) })
	openConnected(t, h, newSlowWeaviate(t).settings())
	excl := flock.New(filepath.Join(dir, LockFile))
	if ok, err := excl.TryLock(); err != nil || ok {
		t.Fatalf("an exclusive lock was granted while the plugin runs (ok=%v err=%v)", ok, err)
	}
	h.Stop("weaviate")
	if ok, err := excl.TryLock(); err != nil || !ok {
		t.Fatalf("the lock is still held after Stop (ok=%v err=%v)", ok, err)
	}
	_ = excl.Unlock()
}

func TestThePluginGetsNoAppSecretsInItsEnvironment(t *testing.T) {
	t.Setenv("APP_KEYRING_PASSWORD", "the-keyring-password")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
	h, _ := newTestHost(t, "plugin", nil)
	openConnected(t, h, newSlowWeaviate(t).settings())
	pr, _ := h.Running("weaviate")
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pr.PID), "environ"))
	if err != nil {
		t.Skip("needs /proc to read a process environment")
	}
	env := strings.Split(string(b), "\x00")
	has := func(kv string) bool {
		for _, e := range env {
			if e == kv {
				return true
			}
		}
		return false
	}
	if strings.Contains(string(b), "the-keyring-password") {
		t.Error("the keyring password reached the plugin")
	}
	if !has("HTTPS_PROXY=http://127.0.0.1:3128") {
		t.Error("the proxy setting a driver needs did not reach the plugin")
	}
}

// Contract 3, item 6: the protocol is negotiated at start. A plugin that serves protocol 2
// runs in this app, read at protocol 2 whatever it claims: searched near vectors and rows,
// and a search by words (whose params protocol 2 has no field for) said to need an update.
func TestAPluginOfProtocolTwoRunsWithWhatItCanDo(t *testing.T) {
	h, _ := newTestHost(t, "plugin-protocol-2", nil)
	d, err := h.Open(context.Background(), "weaviate", driver.DefaultSettings(), "")
	if err != nil {
		t.Fatalf("a protocol-2 plugin did not run: %v", err)
	}
	defer d.Close()
	if d.Capabilities().SearchModes {
		t.Fatal("protocol 2 was read as describing search modes")
	}
	q := "words"
	_, err = d.Search(context.Background(), "Typed", driver.SearchRequest{Query: &q}, 5)
	if !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "update it in Settings, Plugins") {
		t.Fatalf("a search by words to a protocol-2 plugin: %v", err)
	}
}
