// Package meta declares the sync service's metadata store; redismeta
// implements it, and main wires it.
package meta

// Storage keeps tasks, their logs and the collections' signatures.
type Storage interface {
	AppendTaskLog(taskID, line string) error
	UpdateTaskStatus(taskID, status string) error
	SaveSignature(collection, sig string) error
}
