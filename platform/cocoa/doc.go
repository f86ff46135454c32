// Package cocoa binds the macOS frameworks reprise calls through purego,
// without cgo, once for every package: CoreFoundation, CoreGraphics (event
// taps, the window list, images, posted events) and the Objective-C
// runtime; and the window server's list of windows. The window matching
// (PickWindow, FindWindow) is portable and tested everywhere.
package cocoa
