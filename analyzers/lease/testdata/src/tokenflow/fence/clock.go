package fence // want package:"lease facts"

import "time"

func nowNanos() int64 { return time.Now().UnixNano() } // want nowNanos:"token not-ordered time.Now\\(\\).UnixNano\\(\\)"
