package weaviatenode

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
)

// ports are the six listeners one node opens. Only HTTP is public; the others are
// cluster-internal but still need to be distinct per node so nodes can run side by side.
type ports struct {
	HTTP, GRPC, Gossip, Data, Raft, RaftRPC int
}

// ErrPortInUse matches (errors.Is) the error of a start that failed because a port was taken.
var ErrPortInUse = errors.New("port in use")

// portError is a one-sentence port-in-use error that matches ErrPortInUse.
type portError string

func (e portError) Error() string        { return string(e) }
func (e portError) Is(target error) bool { return target == ErrPortInUse }

func portInUseError(port int) error {
	return portError(fmt.Sprintf("cannot start weaviate-server: 127.0.0.1:%d is already in use by another process: stop it or use port 0 for a free one", port))
}

// pickPorts reserves free loopback ports by holding listeners open until all are chosen, so
// the six numbers differ; they are released just before the server binds them. The gossip
// port must be free for UDP as well (memberlist uses both). httpPort != 0 is checked, not
// chosen.
func pickPorts(httpPort int) (ports, error) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	take := func(port int) (int, error) {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			return 0, err
		}
		held = append(held, l)
		return l.Addr().(*net.TCPAddr).Port, nil
	}
	var p ports
	var err error
	if p.HTTP, err = take(httpPort); err != nil {
		if httpPort != 0 && errors.Is(err, syscall.EADDRINUSE) {
			return p, portInUseError(httpPort)
		}
		return p, fmt.Errorf("cannot listen on 127.0.0.1:%d: %v", httpPort, err)
	}
	for _, dst := range []*int{&p.GRPC, &p.Data, &p.Raft, &p.RaftRPC} {
		if *dst, err = take(0); err != nil {
			return p, fmt.Errorf("cannot find a free loopback port: %v", err)
		}
	}
	for range 20 {
		port, err := take(0)
		if err != nil {
			return p, fmt.Errorf("cannot find a free loopback port: %v", err)
		}
		u, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			u.Close()
			p.Gossip = port
			return p, nil
		}
	}
	return p, errors.New("cannot find a loopback port free for both TCP and UDP (gossip)")
}
