//go:build unix

// Package sockio is non-blocking socket I/O for code that holds many sockets
// and serves them itself rather than with a goroutine each: raw reads and
// writes, descriptors taken over from net.Conns, and epoll sets that the Go
// runtime's netpoller waits on.
package sockio

import (
	"syscall"
	"unsafe"
)

// Read is read(2) on a non-blocking descriptor, as a raw system call: the
// goroutine keeps its processor, so the runtime neither hands the processor
// to another thread nor wakes its monitor thread to take it back, which for
// a call that returns at once costs more than the call.
func Read(fd int, p []byte) (int, error) { return rawIO(syscall.SYS_READ, fd, p) }

// Write is write(2) on a non-blocking descriptor, as a raw system call (see
// Read).
func Write(fd int, p []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, p) }

func rawIO(trap uintptr, fd int, p []byte) (int, error) {
	for {
		n, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		switch e {
		case 0:
			return int(n), nil
		case syscall.EINTR:
			continue
		}
		return 0, e
	}
}
