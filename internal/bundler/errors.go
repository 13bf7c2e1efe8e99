package bundler

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// ERC-7769's error codes for refused user operations.
const (
	CodeInvalidFields      = -32602 // invalid UserOperation struct or fields (also wrong EntryPoint, underpriced, duplicate nonce)
	CodeSimulateValidation = -32500 // rejected by the EntryPoint's validation (the account or its factory)
	CodePaymasterRejected  = -32501 // rejected by the paymaster's validatePaymasterUserOp, or by the sponsorship policy
	CodeOutOfTimeRange     = -32503 // the account's or paymaster's validity window excludes now
	CodeThrottled          = -32504 // a sponsorship cap is reached
	CodeUnsupportedAgg     = -32506 // the account asked for a signature aggregator
	CodeInvalidSignature   = -32507 // the account's (or paymaster's) signature check failed
	CodeExecutionReverted  = -32521 // the operation's call reverted (eth_estimateUserOperationGas)
)

func rpcError(code int, format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// failedOpError maps an EntryPoint FailedOp to its ERC-7769 code, with the
// revert data of FailedOpWithRevert in data.
func failedOpError(fo *FailedOpError) *jsonrpc.Error {
	code := CodeSimulateValidation
	if isPaymasterReason(fo.Reason) {
		code = CodePaymasterRejected
	}
	e := &jsonrpc.Error{Code: code, Message: fo.Reason}
	if len(fo.Inner) > 0 {
		e.Data, _ = json.Marshal(map[string]string{"reason": fo.Reason, "revertData": hexutil.Encode(fo.Inner)})
	}
	return e
}

var errInternal = &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "Internal error"}
