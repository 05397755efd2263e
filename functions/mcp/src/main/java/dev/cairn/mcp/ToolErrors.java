package dev.cairn.mcp;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks MCP feature classes whose domain errors become MCP errors carrying the same problem document the HTTP API
 * answers with (see {@link ToolErrorsInterceptor}).
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ToolErrors {}
