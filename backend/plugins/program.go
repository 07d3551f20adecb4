package plugins

import (
	"bytes"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/registry"
)

// describeTimeout bounds `<plugin> describe` during an install.
const describeTimeout = 20 * time.Second

// programPlatform reads which OS family and architecture a program is built for from its
// header: ELF ("unix": Linux and the BSDs), Mach-O (darwin) or PE (windows).
func programPlatform(path string) (registry.Platform, error) {
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		arch := map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64", elf.EM_386: "386", elf.EM_ARM: "arm",
			elf.EM_RISCV: "riscv64", elf.EM_S390: "s390x", elf.EM_LOONGARCH: "loong64", elf.EM_MIPS: "mips"}[f.Machine]
		if f.Machine == elf.EM_PPC64 {
			arch = "ppc64"
			if f.ByteOrder.String() == "LittleEndian" {
				arch = "ppc64le"
			}
		}
		return registry.Platform{OS: "unix", Arch: orUnknown(arch, f.Machine.String())}, nil
	}
	if f, err := macho.Open(path); err == nil {
		defer f.Close()
		return registry.Platform{OS: "darwin", Arch: machoArch(f.Cpu)}, nil
	}
	if ff, err := macho.OpenFat(path); err == nil {
		defer ff.Close()
		return registry.Platform{OS: "darwin", Arch: "universal"}, nil
	}
	if f, err := pe.Open(path); err == nil {
		defer f.Close()
		arch := map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64", pe.IMAGE_FILE_MACHINE_I386: "386"}[f.Machine]
		return registry.Platform{OS: "windows", Arch: orUnknown(arch, fmt.Sprintf("machine %#x", f.Machine))}, nil
	}
	return registry.Platform{}, fmt.Errorf("it is not a program (no ELF, Mach-O or PE header)")
}

func machoArch(c macho.Cpu) string {
	switch c {
	case macho.CpuAmd64:
		return "amd64"
	case macho.CpuArm64:
		return "arm64"
	}
	return c.String()
}

func orUnknown(s, what string) string {
	if s == "" {
		return what
	}
	return s
}

// matches tells whether a program of platform got runs on want.
func matches(got, want registry.Platform) bool {
	os := want.OS
	switch os {
	case "darwin", "windows":
	default:
		os = "unix"
	}
	return got.OS == os && (got.Arch == want.Arch || (got.OS == "darwin" && got.Arch == "universal"))
}

// checkProgram refuses a program built for another platform than the artifact's.
func checkProgram(path string, want registry.Platform, what string) error {
	got, err := programPlatform(path)
	if err != nil {
		return &Error{Code: registry.CodeBadArtifact, Err: err, Msg: fmt.Sprintf("The download of %s holds no program for it: %v. Nothing was installed.", what, err)}
	}
	if !matches(got, want) {
		return &Error{Code: registry.CodeWrongPlatform, Msg: fmt.Sprintf("The download of %s holds a program for %s, not for %s: the registry's entry is wrong. Nothing was installed.", what, got, want)}
	}
	return nil
}

// checkDescribe runs `<program> describe` and refuses a program that is not the plugin and
// version the index names, that speaks another protocol, or that describes connection types
// the signed index does not say it serves. It returns the description.
func checkDescribe(ctx context.Context, path, name string, v *registry.Version, types []string, what string) (grpcdriver.Description, error) {
	ctx, cancel := context.WithTimeout(ctx, describeTimeout)
	defer cancel()
	var out, errb bytes.Buffer
	if err := describeCmd(ctx, path, &out, &errb).Run(); err != nil {
		if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
			return grpcdriver.Description{}, &Error{Code: registry.CodeCancelled, Err: ctx.Err(), Msg: "the plugin install was cancelled; nothing was installed"}
		}
		return grpcdriver.Description{}, &Error{Code: registry.CodeBadArtifact, Err: err, Msg: fmt.Sprintf("The program in the download of %s does not run here (`describe` failed: %s). Nothing was installed.", what, firstLine(errb.String(), err))}
	}
	var d grpcdriver.Description
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		return grpcdriver.Description{}, &Error{Code: registry.CodeBadArtifact, Err: err, Msg: fmt.Sprintf("The program in the download of %s is not a driver plugin (`describe` printed no description). Nothing was installed.", what)}
	}
	if d.Name != name || d.Version != v.Version || d.ProtocolVersion != v.ProtocolVersion {
		return grpcdriver.Description{}, &Error{Code: registry.CodeBadArtifact, Msg: fmt.Sprintf("The program in the download of %s says it is %s %s (plugin protocol %d), but the registry says %s %s (protocol %d). Nothing was installed.",
			what, d.Name, d.Version, d.ProtocolVersion, name, v.Version, v.ProtocolVersion)}
	}
	if t := unlistedType(d.Connections, types); t != "" {
		return grpcdriver.Description{}, &Error{Code: registry.CodeBadArtifact, Msg: fmt.Sprintf("The program in the download of %s describes the connection type %q, which the registry does not say it serves (%s). Nothing was installed.",
			what, t, strings.Join(types, ", "))}
	}
	if err := d.Connections.Valid(); err != nil {
		return grpcdriver.Description{}, &Error{Code: registry.CodeBadArtifact, Err: err, Msg: fmt.Sprintf("The program in the download of %s describes its connections wrongly (%v). Nothing was installed.", what, err)}
	}
	return d, nil
}

// describeCmd is `<path> describe` with the little environment it runs with.
func describeCmd(ctx context.Context, path string, stdout, stderr *bytes.Buffer) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, "describe")
	cmd.Env = describeEnv()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd
}

// runDescribe runs an installed program's `describe` and reads what it prints.
func runDescribe(ctx context.Context, path string) (grpcdriver.Description, error) {
	var out, errb bytes.Buffer
	if err := describeCmd(ctx, path, &out, &errb).Run(); err != nil {
		return grpcdriver.Description{}, fmt.Errorf("%s describe: %v: %s", path, err, firstLine(errb.String(), err))
	}
	var d grpcdriver.Description
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		return grpcdriver.Description{}, err
	}
	return d, nil
}

func firstLine(s string, err error) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return err.Error()
	}
	return s
}

// describeEnv is the little environment `describe` runs with.
func describeEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "SystemRoot"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}
