package httpapi

import (
	"syscall"
	"unsafe"
)

// sockRead and sockWrite are read(2) and write(2) on a non-blocking socket, made without
// telling the Go scheduler (syscall.RawSyscall): they never block, and a deliverer writing a
// thousand responses in a row would otherwise enter and leave the scheduler's syscall state
// around each, letting sysmon hand its P to another thread mid-batch. EAGAIN is returned, not
// waited for.
func sockRead(fd int, b []byte) (int, error) {
	return rawIO(syscall.SYS_READ, fd, b)
}

func sockWrite(fd int, b []byte) (int, error) {
	return rawIO(syscall.SYS_WRITE, fd, b)
}

func rawIO(trap uintptr, fd int, b []byte) (int, error) {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	n, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(p), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
