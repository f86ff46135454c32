// Package win32 binds the Windows system DLLs reprise calls once for every
// package (user32, kernel32, gdi32, ole32, oleaut32, oleacc), with the
// calls more than one package makes: the window at a point, its root and
// title, the pointer, system metrics, and BSTRs. Each package binds the
// procedures only it calls from these DLLs.
package win32
