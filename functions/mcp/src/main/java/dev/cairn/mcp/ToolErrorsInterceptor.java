package dev.cairn.mcp;

import dev.cairn.http.Problem;
import dev.cairn.http.ProblemMappers;
import dev.cairn.http.Unauthenticated;
import dev.cairn.model.error.CairnException;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolCallException;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * A known error is the client's to fix, so a tool answers it as a tool error ({@code isError: true}) whose text is the
 * problem document of API.md — the agent reads {@code detail} and retries — rather than a protocol error that ends the
 * call. Resource reads have no tool-error form: they answer a JSON-RPC error whose message is the problem. Unknown
 * exceptions propagate, as in the HTTP API, so they reach the logs and the Lambda's error metrics.
 */
@ToolErrors
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class ToolErrorsInterceptor {

    private final McpJson json;

    public ToolErrorsInterceptor(McpJson json) {
        this.json = json;
    }

    @AroundInvoke
    Object answerProblems(InvocationContext ctx) throws Exception {
        try {
            return ctx.proceed();
        } catch (CairnException e) {
            throw failure(ctx, Problem.of(e, ProblemMappers.statusOf(e)), JsonRpcErrorCodes.INVALID_PARAMS);
        } catch (Unauthenticated e) {
            throw failure(
                    ctx,
                    Problem.of("unauthenticated", "Unauthenticated", 401, e.getMessage()),
                    JsonRpcErrorCodes.SECURITY_ERROR);
        }
    }

    private RuntimeException failure(InvocationContext ctx, Problem problem, int rpcCode) {
        String text = json.write(problem);
        if (ctx.getMethod().isAnnotationPresent(Tool.class)) {
            return new ToolCallException(text);
        }
        return new McpException(text, rpcCode);
    }
}
