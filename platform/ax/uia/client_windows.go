package uia

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// UIA's own time limits for one cross-process call (IUIAutomation2): a
// hung application blocks the COM thread at most this long, not UIA's
// default 20 s. Callers' contexts are shorter still; a call they gave up
// on finishes on the COM thread and its result is dropped.
const (
	connectionTimeout  = 2 * time.Second
	transactionTimeout = 5 * time.Second
	closeWait          = 10 * time.Second
)

// Client is a UI Automation client. Every COM call runs on one goroutine
// locked to its OS thread, in the multithreaded apartment, serving the
// methods' requests in turn; the methods are safe for concurrent use.
type Client struct {
	log       *slog.Logger
	reqs      chan *request
	quit      chan struct{} // closed by Close
	done      chan struct{} // closed when the COM thread has released everything
	closeOnce sync.Once
	closeErr  error

	// Owned by the COM thread.
	auto     *object // IUIAutomation
	walker   *object // control view walker; nil when walkErr says why
	walkErr  error
	root     *object  // the desktop; nil when UIA gave none
	cacheReq *object  // a listing's cache request, made by the first List
	listed   []uint64 // the last List's elements, released by the next
	els      map[uint64]*object
	nextID   uint64
	ours     Integrity
	oursErr  error
}

// handle is an Element's key in its Client's table of elements; 0 is
// none.
type handle struct{ id uint64 }

// request is one method's work for the COM thread.
type request struct {
	ctx     context.Context
	fn      func(ctx context.Context) (any, error)
	cleanup func(any) // releases a result nobody waits for
	state   atomic.Int32
	res     chan result
}

type result struct {
	v   any
	err error
}

const (
	pending int32 = iota
	delivered
	abandoned
)

// New starts the COM thread and makes the UIA client object. The error
// wraps ErrUnavailable when COM or CoCreateInstance fails.
func New(o Options) (*Client, error) {
	if o.ServerDLL != "" {
		return start(o, func() (*object, error) { return createFrom(o.ServerDLL) })
	}
	return start(o, createAutomation)
}

// createFrom makes the automation object with a stand-in server's
// FakeUIA_Create (Options.ServerDLL). The DLL stays loaded: its objects
// live as long as the process.
func createFrom(path string) (*object, error) {
	dll, err := windows.LoadDLL(path)
	if err != nil {
		return nil, fmt.Errorf("%w: load %s: %w", ErrUnavailable, path, err)
	}
	create, err := dll.FindProc("FakeUIA_Create")
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, path, err)
	}
	var auto *object
	hr, _, _ := create.Call(uintptr(unsafe.Pointer(&auto)))
	if err := check("FakeUIA_Create", HRESULT(uint32(hr))); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return auto, nil
}

// start is New with the automation object made by create (on the COM
// thread); tests give it a fake.
func start(o Options, create func() (*object, error)) (*Client, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Client{
		log:  o.Logger.WithGroup("uia"),
		reqs: make(chan *request),
		quit: make(chan struct{}),
		done: make(chan struct{}),
		els:  map[uint64]*object{},
	}
	started := make(chan error, 1)
	go c.run(started, create)
	if err := <-started; err != nil {
		<-c.done
		return nil, err
	}
	return c, nil
}

// run is the COM thread. The thread stays locked: when run returns, Go
// ends the thread, and its apartment with it.
func (c *Client) run(started chan<- error, create func() (*object, error)) {
	runtime.LockOSThread()
	defer close(c.done)
	hr, _, _ := procCoInitializeEx.Call(0, coinitMultithreaded)
	switch HRESULT(uint32(hr)) {
	case 0, 1: // S_OK; S_FALSE: already in the multithreaded apartment
		defer procCoUninitialize.Call()
	case 0x80010106: // RPC_E_CHANGED_MODE: a single-threaded apartment someone left here
		c.log.Debug("thread already in a single-threaded apartment; using it")
	default:
		started <- fmt.Errorf("%w: CoInitializeEx: %w", ErrUnavailable, HRESULT(uint32(hr)))
		return
	}
	if err := c.open(create); err != nil {
		c.releaseAll()
		started <- err
		return
	}
	started <- nil
	defer c.releaseAll()
	for {
		select {
		case r := <-c.reqs:
			c.serve(r)
		case <-c.quit:
			return
		}
	}
}

// open makes the automation object and fetches the desktop and the
// control view walker, and sets UIA's timeouts where it can.
func (c *Client) open(create func() (*object, error)) error {
	var err error
	if c.auto, err = create(); err != nil {
		return err
	}
	if a2, err := queryInterface(c.auto, &iidIUIAutomation2); err == nil {
		if err := check("put_ConnectionTimeout", a2.callU(mPutConnectionTimeout, uintptr(connectionTimeout.Milliseconds()))); err != nil {
			c.log.Debug("no connection timeout", "err", err)
		}
		if err := check("put_TransactionTimeout", a2.callU(mPutTransactionTimeout, uintptr(transactionTimeout.Milliseconds()))); err != nil {
			c.log.Debug("no transaction timeout", "err", err)
		}
		a2.release()
	}
	if c.root, err = getObject(c.auto, mGetRootElement, "GetRootElement"); err != nil {
		c.log.Debug("no desktop element", "err", err)
	}
	if c.walker, c.walkErr = getObject(c.auto, mGetControlViewWalker, "get_ControlViewWalker"); c.walkErr == nil && c.walker == nil {
		c.walkErr = errors.New("uia: get_ControlViewWalker gave no walker")
	}
	c.ours, c.oursErr = ownIntegrity()
	return nil
}

// createAutomation makes the automation object: CUIAutomation8 where
// Windows has it (Windows 8 on), for IUIAutomation2's timeouts, else
// CUIAutomation.
func createAutomation() (*object, error) {
	auto, err8 := coCreate(&clsidCUIAutomation8)
	if err8 == nil {
		return auto, nil
	}
	auto, err := coCreate(&clsidCUIAutomation)
	if err != nil {
		return nil, fmt.Errorf("%w: CoCreateInstance(CUIAutomation): %w (CUIAutomation8: %w)", ErrUnavailable, err, err8)
	}
	return auto, nil
}

func coCreate(clsid *guid) (*object, error) {
	var out *object
	hr, _, _ := procCoCreateInst.Call(uintptr(unsafe.Pointer(clsid)), 0, clsctxInprocServer,
		uintptr(unsafe.Pointer(&iidIUIAutomation)), uintptr(unsafe.Pointer(&out)))
	if err := check("CoCreateInstance", HRESULT(uint32(hr))); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, errors.New("uia: CoCreateInstance gave no object")
	}
	return out, nil
}

func (c *Client) releaseAll() {
	for id, o := range c.els {
		o.release()
		delete(c.els, id)
	}
	c.cacheReq.release()
	c.walker.release()
	c.root.release()
	c.auto.release()
	c.cacheReq, c.walker, c.root, c.auto = nil, nil, nil, nil
}

// serve runs one request, unless its caller has gone.
func (c *Client) serve(r *request) {
	var res result
	if err := r.ctx.Err(); err != nil {
		res.err = fmt.Errorf("uia: %w", err)
	} else {
		res.v, res.err = r.fn(r.ctx)
	}
	if r.state.CompareAndSwap(pending, delivered) {
		r.res <- res
	} else if res.err == nil && r.cleanup != nil {
		r.cleanup(res.v)
	}
}

// do runs fn on the COM thread and waits for it or for ctx. When ctx ends
// first, fn's result is given to cleanup on the COM thread instead.
func (c *Client) do(ctx context.Context, fn func(ctx context.Context) (any, error), cleanup func(any)) (any, error) {
	r := &request{ctx: ctx, fn: fn, cleanup: cleanup, res: make(chan result, 1)}
	select {
	case c.reqs <- r:
	case <-c.quit:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, fmt.Errorf("uia: %w", ctx.Err())
	}
	select {
	case res := <-r.res:
		return res.v, res.err
	case <-ctx.Done():
		if r.state.CompareAndSwap(pending, abandoned) {
			return nil, fmt.Errorf("uia: %w", ctx.Err())
		}
		res := <-r.res
		return res.v, res.err
	}
}

// Release lets go of elements Find returned; releasing one twice, or one
// after Close, does nothing.
func (c *Client) Release(els ...Element) {
	ids := make([]uint64, 0, len(els))
	for _, e := range els {
		if e.h.id != 0 {
			ids = append(ids, e.h.id)
		}
	}
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	_, _ = c.do(ctx, func(context.Context) (any, error) {
		c.forget(ids)
		return nil, nil
	}, nil)
}

// forget releases stored elements; on the COM thread only.
func (c *Client) forget(ids []uint64) {
	for _, id := range ids {
		if o, ok := c.els[id]; ok {
			o.release()
			delete(c.els, id)
		}
	}
}

// Close stops the COM thread, which releases every element and interface
// first. It is safe to call twice. When a UIA call is hung in a stuck
// application, Close gives up waiting after 10 s and says so; the thread
// releases everything when the call returns.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		close(c.quit)
		select {
		case <-c.done:
		case <-time.After(closeWait):
			c.closeErr = errors.New("uia: close: a UI Automation call is still running (an application not responding?)")
		}
	})
	return c.closeErr
}
