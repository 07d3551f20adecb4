package registry

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// MaxUnpacked bounds the bytes an artifact may unpack to.
const MaxUnpacked = 1 << 30

// Pack writes a plugin artifact to w: a gzip-compressed tar holding one executable file
// named binary (mode 0755) with the content of r. The archive is reproducible: no owner,
// a fixed modification time.
func Pack(w io.Writer, binary string, r io.Reader, size int64) error {
	if !binaryRE.MatchString(binary) {
		return fmt.Errorf("binary name %q is not a plain file name", binary)
	}
	gz, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: binary, Mode: 0o755, Size: size, ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := io.Copy(tw, io.LimitReader(r, size)); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// Unpack extracts an artifact into dir, which must exist and be empty. Only plain files
// at the top level are accepted (no directories, links, devices, absolute or dotted
// names), at most MaxUnpacked bytes in all; every file is written 0644, except binary,
// which must be there and is written 0755. The error says what was wrong.
func Unpack(r io.Reader, dir, binary string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("not gzip data")
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	var total int64
	found := false
	seen := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("the tar archive is damaged")
		}
		switch hdr.Typeflag {
		case tar.TypeReg:
		case tar.TypeXGlobalHeader:
			continue
		default:
			return fmt.Errorf("it holds %q, which is not a plain file", hdr.Name)
		}
		if !binaryRE.MatchString(hdr.Name) || seen[hdr.Name] {
			return fmt.Errorf("it holds a file named %q, which is not a plain top-level file name", hdr.Name)
		}
		seen[hdr.Name] = true
		total += hdr.Size
		if hdr.Size < 0 || total > MaxUnpacked {
			return fmt.Errorf("it unpacks to more than %d MB", MaxUnpacked>>20)
		}
		mode := os.FileMode(0o644)
		if hdr.Name == binary {
			mode, found = 0o755, true
		}
		if err := writeFile(filepath.Join(dir, hdr.Name), tr, hdr.Size, mode); err != nil {
			return err
		}
	}
	if !found {
		return fmt.Errorf("it does not hold the program %s", binary)
	}
	return nil
}

func writeFile(path string, r io.Reader, size int64, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, damagedReader{io.LimitReader(r, size)})
	if err == nil && n != size {
		err = fmt.Errorf("the tar archive ends inside %s", filepath.Base(path))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// errDamaged is a read error inside an archive.
var errDamaged = errors.New("the archive is damaged")

// damagedReader reports any read error as errDamaged (a write error stays what it is).
type damagedReader struct{ r io.Reader }

func (d damagedReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = errDamaged
	}
	return n, err
}
