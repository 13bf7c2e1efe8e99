//go:build linux

package sockio

import (
	"os"
	"syscall"
	"unsafe"
)

// Dup returns a non-blocking duplicate of c's descriptor, closed on exec.
// Closing c afterwards leaves the socket open on the duplicate.
func Dup(c syscall.Conn) (int, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(f uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, f, syscall.F_DUPFD_CLOEXEC, 0)
		if e != 0 {
			derr = os.NewSyscallError("fcntl", e)
			return
		}
		fd = int(r)
	}); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, derr
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// Poller is an epoll set served by one goroutine (Run). The epoll descriptor
// is itself in the runtime's netpoller: while nothing is ready, Run parks
// like any goroutine waiting for a socket, instead of blocking a thread in
// epoll_wait (which the runtime would keep taking processors back from).
type Poller struct {
	epfd, wakefd int
	file         *os.File
}

// Events a socket is watched for: In (readable) and Out (writable); both
// report a peer that closed its end. Added to them, ET makes the watch
// edge-triggered.
const (
	In  = syscall.EPOLLIN | syscall.EPOLLRDHUP
	Out = syscall.EPOLLOUT | syscall.EPOLLRDHUP
	// ET (EPOLLET) reports a socket once each time it becomes ready (bytes
	// arrive, room to write frees up, the peer closes) rather than for as
	// long as it is: epoll then neither re-checks every reported socket on
	// the next wait nor moves it back onto its ready list, which at one event
	// per message is a few percent of the CPU. In exchange the caller must
	// read until a read comes back short of its buffer (the socket is then
	// empty, and the next bytes report it again), or EAGAIN; a peer that
	// closed is reported once too. Modify re-arms: a socket that is ready
	// when its events are changed is reported again.
	ET uint32 = 1 << 31
)

// NewPoller returns an empty epoll set.
func NewPoller() (*Poller, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	r, _, e := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if e != 0 {
		syscall.Close(epfd)
		return nil, os.NewSyscallError("eventfd2", e)
	}
	wakefd := int(r)
	err = syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, wakefd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(wakefd)})
	if err == nil {
		err = syscall.SetNonblock(epfd, true) // so os.NewFile hands it to the netpoller
	}
	if err != nil {
		syscall.Close(epfd)
		syscall.Close(wakefd)
		return nil, os.NewSyscallError("epoll_ctl", err)
	}
	return &Poller{epfd: epfd, wakefd: wakefd, file: os.NewFile(uintptr(epfd), "epoll")}, nil
}

// Add watches fd for events (In, Out or both), level-triggered (a socket
// is reported for as long as it is ready) unless they include ET. A socket
// that is ready already is reported either way.
func (p *Poller) Add(fd int, events uint32) error {
	return os.NewSyscallError("epoll_ctl", syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: events, Fd: int32(fd)}))
}

// Modify changes the events fd is watched for.
func (p *Poller) Modify(fd int, events uint32) error {
	return os.NewSyscallError("epoll_ctl", syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_MOD, fd, &syscall.EpollEvent{Events: events, Fd: int32(fd)}))
}

// Remove stops watching fd; call it before closing fd.
func (p *Poller) Remove(fd int) {
	syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_DEL, fd, nil)
}

// Run calls serve with each batch of ready sockets (events[i].Fd) until
// Stop, then releases the set. It asks epoll without waiting and parks in
// the netpoller only when nothing is ready.
func (p *Poller) Run(serve func(events []syscall.EpollEvent)) {
	defer func() {
		p.file.Close()
		syscall.Close(p.wakefd)
	}()
	rc, err := p.file.SyscallConn()
	if err != nil {
		panic(err) // an os.File always has one
	}
	events := make([]syscall.EpollEvent, 128)
	rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, fd, uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
			switch {
			case e == syscall.EINTR:
				continue
			case e != 0:
				panic(os.NewSyscallError("epoll_wait", e)) // EBADF, EFAULT, EINVAL: a bug
			case r == 0:
				// Nothing is ready: park until the epoll descriptor is
				// readable. The runtime watches it edge-triggered, so Run
				// parks only once epoll_wait found nothing, never while a
				// socket is still reported.
				return false
			}
			batch := events[:r]
			for i := range batch {
				if int(batch[i].Fd) == p.wakefd {
					return true // stopped: what else is ready no longer matters
				}
			}
			serve(batch)
		}
	})
}

// Stop makes Run return once it has served the batch it is serving.
func (p *Poller) Stop() {
	one := [8]byte{1}
	syscall.Write(p.wakefd, one[:])
}
