//go:build linux && cgo && (desktop || dev)

package nativedialog

/*
#include <stdint.h>
*/
import "C"

import "runtime/cgo"

//export appApprovalAnswered
func appApprovalAnswered(handle C.uintptr_t, yes C.int) {
	select {
	case cgo.Handle(handle).Value().(chan bool) <- yes != 0:
	default:
	}
}
