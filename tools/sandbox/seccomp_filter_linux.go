package sandbox

import (
	"encoding/hex"
	"fmt"
	"runtime"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter every sandboxed command runs under. It is built here,
// once, and handed to both launchers in the policy (the C launcher runs
// before the Go runtime and only installs what it is given), so there is
// one filter to read and to test. golang.org/x/net/bpf assembles it (the
// jump offsets of a hand-written program are where such filters go
// wrong) and its VM runs it in the tests.
//
// What it does, in order:
//   - a system call of another architecture (int 0x80 on amd64, x32) is
//     refused: its numbers are not the ones checked below;
//   - connect() goes to the daemon (SECCOMP_RET_USER_NOTIF), which
//     decides on the socket it names (unixconnect_linux.go);
//   - io_uring_setup is refused (ENOSYS, so programs fall back to plain
//     system calls): io_uring's own connect would bypass this filter;
//   - socket() and socketpair() of a unix datagram socket are refused
//     (EACCES): a datagram names its destination in each sendto/sendmsg,
//     in memory the command can rewrite after a check, so a destination
//     check cannot be race-free; without unix datagram sockets there is
//     nothing to check (a unix stream or seqpacket socket ignores or
//     refuses a destination given to sendto/sendmsg).
//
// Every other system call is allowed: the cost is one short program run
// per system call, plus a round trip to the daemon per connect.

// seccompData offsets (struct seccomp_data, little-endian hosts).
const (
	offNr       = 0
	offArch     = 4
	offArgLow0  = 16 // args[0], low 32 bits
	offArgLow1  = 24 // args[1], low 32 bits
	x32SysBit   = 0x40000000
	sockTypeMsk = 0xf
)

// filterArch is the audit architecture of this build, 0 where the
// filter is not built (the sandbox then says unix sockets are not
// filtered).
func filterArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// socketFilter returns the filter program, nil when this architecture
// has none.
func socketFilter() ([]bpf.RawInstruction, error) {
	arch := filterArch()
	if arch == 0 {
		return nil, nil
	}
	const (
		allow   = unix.SECCOMP_RET_ALLOW
		notify  = unix.SECCOMP_RET_USER_NOTIF
		enosys  = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		eacces  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
		foreign = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: arch, SkipTrue: 1},
		bpf.RetConstant{Val: foreign},
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	if runtime.GOARCH == "amd64" {
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32SysBit, SkipFalse: 1},
			bpf.RetConstant{Val: foreign})
	}
	prog = append(prog,
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_CONNECT, SkipFalse: 1},
		bpf.RetConstant{Val: notify},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_IO_URING_SETUP, SkipFalse: 1},
		bpf.RetConstant{Val: enosys},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_SOCKET, SkipTrue: 2},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_SOCKETPAIR, SkipTrue: 1},
		bpf.RetConstant{Val: allow},
		// socket or socketpair: a unix datagram socket?
		bpf.LoadAbsolute{Off: offArgLow0, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_UNIX, SkipFalse: 3},
		bpf.LoadAbsolute{Off: offArgLow1, Size: 4},
		bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: sockTypeMsk},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SOCK_DGRAM, SkipTrue: 1},
		bpf.RetConstant{Val: allow},
		bpf.RetConstant{Val: eacces},
	)
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp filter: %w", err)
	}
	return raw, nil
}

// encodeFilter writes the program as hex of struct sock_filter, 8 bytes
// per instruction (code u16, jt u8, jf u8, k u32; little-endian), the form
// the launchers install.
func encodeFilter(raw []bpf.RawInstruction) string {
	b := make([]byte, 0, 8*len(raw))
	for _, in := range raw {
		b = append(b, byte(in.Op), byte(in.Op>>8), in.Jt, in.Jf,
			byte(in.K), byte(in.K>>8), byte(in.K>>16), byte(in.K>>24))
	}
	return hex.EncodeToString(b)
}

// decodeFilter reads what encodeFilter wrote.
func decodeFilter(s string) ([]unix.SockFilter, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b)%8 != 0 || len(b) == 0 {
		return nil, fmt.Errorf("seccomp filter: not a program (%d bytes, %v)", len(b), err)
	}
	out := make([]unix.SockFilter, len(b)/8)
	for i := range out {
		p := b[8*i:]
		out[i] = unix.SockFilter{Code: uint16(p[0]) | uint16(p[1])<<8, Jt: p[2], Jf: p[3],
			K: uint32(p[4]) | uint32(p[5])<<8 | uint32(p[6])<<16 | uint32(p[7])<<24}
	}
	return out, nil
}
