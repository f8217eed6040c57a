// Package zerocheck checks that the zero value of every exported struct
// type of the library is useful or refused.
package zerocheck
