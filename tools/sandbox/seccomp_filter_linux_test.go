package sandbox

import (
	"encoding/binary"
	"reflect"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter, run in x/net/bpf's VM on the system calls it must
// tell apart, including the ones a live test cannot make from Go (a
// foreign architecture's int 0x80, an x32 call): connect goes to the
// daemon; io_uring, unix datagram sockets and foreign calls are refused;
// everything else runs.
func TestSocketFilter(t *testing.T) {
	raw, err := socketFilter()
	if err != nil {
		t.Fatal(err)
	}
	if raw == nil {
		t.Skip("no filter on this architecture")
	}
	vm, err := bpf.NewVM(mustDisassemble(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	arch := filterArch()
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		notify = unix.SECCOMP_RET_USER_NOTIF
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		eacces = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	)
	cases := []struct {
		name string
		arch uint32
		nr   uint32
		args [2]uint32
		want uint32
	}{
		{"connect", arch, unix.SYS_CONNECT, [2]uint32{3, 0}, notify},
		{"read", arch, unix.SYS_READ, [2]uint32{0, 0}, allow},
		{"io_uring_setup", arch, unix.SYS_IO_URING_SETUP, [2]uint32{8, 0}, enosys},
		{"a unix stream socket", arch, unix.SYS_SOCKET, [2]uint32{unix.AF_UNIX, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}, allow},
		{"a unix seqpacket socket", arch, unix.SYS_SOCKET, [2]uint32{unix.AF_UNIX, unix.SOCK_SEQPACKET}, allow},
		{"a unix datagram socket", arch, unix.SYS_SOCKET, [2]uint32{unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC}, eacces},
		{"a unix datagram socketpair", arch, unix.SYS_SOCKETPAIR, [2]uint32{unix.AF_UNIX, unix.SOCK_DGRAM}, eacces},
		{"a unix stream socketpair", arch, unix.SYS_SOCKETPAIR, [2]uint32{unix.AF_UNIX, unix.SOCK_STREAM}, allow},
		{"a UDP socket", arch, unix.SYS_SOCKET, [2]uint32{unix.AF_INET, unix.SOCK_DGRAM}, allow},
		{"a foreign architecture's call", unix.AUDIT_ARCH_I386, 102 /* socketcall */, [2]uint32{3, 0}, enosys},
	}
	if arch == unix.AUDIT_ARCH_X86_64 {
		cases = append(cases, struct {
			name string
			arch uint32
			nr   uint32
			args [2]uint32
			want uint32
		}{"an x32 connect", arch, x32SysBit | unix.SYS_CONNECT, [2]uint32{3, 0}, enosys})
	}
	for _, c := range cases {
		got, err := vm.Run(seccompInput(c.arch, c.nr, c.args))
		if err != nil {
			t.Fatal(err)
		}
		if uint32(got) != c.want {
			t.Errorf("%s: filter returns %#x, want %#x", c.name, got, c.want)
		}
	}
	// What the launchers install is the same program.
	dec, err := decodeFilter(encodeFilter(raw))
	if err != nil {
		t.Fatal(err)
	}
	var back []bpf.RawInstruction
	for _, f := range dec {
		back = append(back, bpf.RawInstruction{Op: f.Code, Jt: f.Jt, Jf: f.Jf, K: f.K})
	}
	if !reflect.DeepEqual(back, raw) {
		t.Errorf("the encoded filter decodes to %v, want %v", back, raw)
	}
}

// seccompInput is a struct seccomp_data as the VM reads it: the VM loads
// words big-endian, the kernel in the host's order, so each word is
// written big-endian for the VM to see the value the kernel sees.
func seccompInput(arch, nr uint32, args [2]uint32) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[offNr:], nr)
	binary.BigEndian.PutUint32(b[offArch:], arch)
	binary.BigEndian.PutUint32(b[offArgLow0:], args[0])
	binary.BigEndian.PutUint32(b[offArgLow1:], args[1])
	return b
}

func mustDisassemble(t *testing.T, raw []bpf.RawInstruction) []bpf.Instruction {
	t.Helper()
	prog, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatal("the filter does not disassemble")
	}
	return prog
}
