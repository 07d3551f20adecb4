//go:build linux

package config

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// fsImmutableFL is FS_IMMUTABLE_FL of <linux/fs.h> (chattr +i), which x/sys/unix does not name.
const fsImmutableFL = 0x10

// rootReadOnly makes dir read-only for root as well: root ignores a dir's mode
// (CAP_DAC_OVERRIDE), but not the immutable flag, under which nothing in dir can be created,
// renamed or removed, whoever asks. It needs CAP_LINUX_IMMUTABLE and a file system that keeps
// the flag (ext4, xfs, btrfs, tmpfs since Linux 6.0); without them the test is skipped, since
// no other fault stops root from writing while leaving the old file readable. The flag is
// cleared when the test ends, or t.TempDir could not remove dir.
func rootReadOnly(t *testing.T, dir string) {
	t.Helper()
	if err := setImmutable(dir, true); err != nil {
		t.Skipf("running as root, where a dir's mode does not stop writes, and the immutable flag cannot be set here (%v)", err)
	}
	t.Cleanup(func() {
		if err := setImmutable(dir, false); err != nil {
			t.Errorf("clear the immutable flag of %s: %v", dir, err)
		}
	})
}

func setImmutable(path string, on bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fd := int(f.Fd())
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		return fmt.Errorf("get the flags of %s: %w", path, err)
	}
	if on {
		flags |= fsImmutableFL
	} else {
		flags &^= fsImmutableFL
	}
	if err := unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags)); err != nil {
		return fmt.Errorf("set the flags of %s: %w", path, err)
	}
	return nil
}
