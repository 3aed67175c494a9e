package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiles are the profiles a standalone run writes (-cpuprofile,
// -memprofile). They profile fencelint's own driver: multichecker's flags of
// the same names would type-check every dependency from source, a different
// run from the one being measured.
type profiles struct {
	cpu, mem string // file names, or ""
	cpuFile  *os.File
}

// start starts the CPU profile, if asked for.
func (p *profiles) start() error {
	if p.cpu == "" {
		return nil
	}
	f, err := os.Create(p.cpu)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	p.cpuFile = f
	return nil
}

// writeHeap writes the heap profile, if asked for. It is called when the
// analysis is done and its results are still held, the run's largest heap.
func (p *profiles) writeHeap() error {
	if p.mem == "" {
		return nil
	}
	runtime.GC() // the in-use figures are as of the last collection
	return writeFile(p.mem, func(f *os.File) error { return pprof.Lookup("heap").WriteTo(f, 0) })
}

// stop stops the CPU profile, if one runs, and closes its file.
func (p *profiles) stop() error {
	if p.cpuFile == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := p.cpuFile.Close()
	p.cpuFile = nil
	return err
}

// writeFile creates name and fills it with write.
func writeFile(name string, write func(*os.File) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return f.Close()
}
