package httpapi_test

import (
	"fmt"

	"github.com/teamchat/chat/httpapi"
)

func ExampleZuliprc() {
	fmt.Print(httpapi.Zuliprc("ada@example.com", "0123456789abcdefghijABCDEFGHIJ01", "http://127.0.0.1:9991"))
	// Output:
	// [api]
	// email=ada@example.com
	// key=0123456789abcdefghijABCDEFGHIJ01
	// site=http://127.0.0.1:9991
}
