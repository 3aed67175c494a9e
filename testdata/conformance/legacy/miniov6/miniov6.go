// Package miniov6 holds a module mirror that stores zips in MinIO with
// minio-go v6 (github.com/minio/minio-go/v6), whose calls take no context
// or take it through the *WithContext methods, under a bsm/redislock lock.
package miniov6

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/minio/minio-go/v6"
)

var errBusy = errors.New("mirror: another replica is saving this version")

// Mirror saves module versions; one replica at a time saves a version.
type Mirror struct {
	locker *redislock.Client
	mc     *minio.Client
	bucket string
}

// Save uploads the zip in parts with fixed names, composes them and
// removes the parts: a stale saver deletes the parts the next holder is
// composing.
func (m *Mirror) Save(ctx context.Context, mod, ver string, parts [][]byte) error {
	lock, err := m.locker.Obtain(ctx, "save:"+mod+"@"+ver, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer lock.Release(context.Background())
	srcs := make([]minio.SourceInfo, 0, len(parts))
	for i, p := range parts {
		name := fmt.Sprintf("parts/%s/%s/%d", mod, ver, i)
		if _, err := m.mc.PutObjectWithContext(ctx, m.bucket, name, bytes.NewReader(p), int64(len(p)), minio.PutObjectOptions{}); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
		srcs = append(srcs, minio.NewSourceInfo(m.bucket, name, nil))
	}
	dst, err := minio.NewDestinationInfo(m.bucket, mod+"/"+ver+"/source.zip", nil, nil)
	if err != nil {
		return err
	}
	if err := m.mc.ComposeObject(dst, srcs); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	names := make(chan string, len(parts))
	for i := range parts {
		names <- fmt.Sprintf("parts/%s/%s/%d", mod, ver, i)
	}
	close(names)
	for e := range m.mc.RemoveObjectsWithContext(ctx, m.bucket, names) { // want unfencedwrite:"without a fencing token"
		if e.Err != nil {
			return e.Err
		}
	}
	_, err = m.mc.FPutObjectWithContext(ctx, m.bucket, mod+"/"+ver+"/go.mod", "/tmp/go.mod", minio.PutObjectOptions{ContentType: "text/plain"}) // want unfencedwrite:"without a fencing token"
	return err
}
