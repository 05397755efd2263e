package dev.cairn.it;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * What API Gateway's HTTP API hands a packaged function ({@link LambdaRuntime}) and what it reads back: payload format
 * 2.0 events as the stack's integrations deliver them (with the JWT authorizer's verified claims in
 * {@code requestContext.authorizer.jwt.claims} when a route has the authorizer), the function's proxy answer, and RS256
 * tokens from a throw-away key whose public half the function is given as {@code CAIRN_AUTH_PUBLIC_KEY}.
 */
final class ApiGatewayEvents {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ApiGatewayEvents() {}

    /** A function's answer to an HTTP API event: status, headers (lower-cased names) and the decoded body. */
    record Reply(int status, Map<String, String> headers, String body) {

        static Reply of(String answer) throws JsonProcessingException {
            JsonNode node = JSON.readTree(answer);
            Map<String, String> headers = new LinkedHashMap<>();
            node.path("headers")
                    .properties()
                    .forEach(e -> headers.put(
                            e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
            node.path("multiValueHeaders")
                    .properties()
                    .forEach(e -> headers.putIfAbsent(
                            e.getKey().toLowerCase(Locale.ROOT),
                            e.getValue().path(0).asText()));
            String body = node.path("body").asText("");
            if (node.path("isBase64Encoded").asBoolean(false)) {
                body = new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
            }
            return new Reply(node.path("statusCode").asInt(-1), headers, body);
        }

        JsonNode json() throws JsonProcessingException {
            return JSON.readTree(body);
        }
    }

    /**
     * An HTTP API (payload 2.0) event for {@code method path}. {@code claims} are what the JWT authorizer put in the
     * request context after verifying the token (null: a route without the authorizer, or a request that never passed
     * it); {@code headers} as the client sent them (API Gateway lower-cases their names).
     */
    static String http(String method, String path, Map<String, String> headers, String body, Map<String, Object> claims)
            throws JsonProcessingException {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("accountId", "000000000000");
        context.put("apiId", "local");
        context.put("domainName", "api.local");
        context.put("requestId", UUID.randomUUID().toString());
        context.put("routeKey", method + " " + path);
        context.put("stage", "$default");
        context.put("timeEpoch", System.currentTimeMillis());
        context.put(
                "http",
                Map.of(
                        "method",
                        method,
                        "path",
                        path,
                        "protocol",
                        "HTTP/1.1",
                        "sourceIp",
                        "127.0.0.1",
                        "userAgent",
                        "cairn-it"));
        if (claims != null) {
            context.put("authorizer", Map.of("jwt", Map.of("claims", asAuthorizerPassesThem(claims))));
        }
        Map<String, String> lower = new LinkedHashMap<>();
        lower.put("host", "api.local");
        headers.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "2.0");
        event.put("routeKey", method + " " + path);
        event.put("rawPath", path);
        event.put("rawQueryString", "");
        event.put("headers", lower);
        event.put("requestContext", context);
        if (body != null) {
            event.put("body", body);
        }
        event.put("isBase64Encoded", false);
        return JSON.writeValueAsString(event);
    }

    /**
     * Claims as the HTTP API's JWT authorizer hands them to an integration (payload 2.0): every value a string, an
     * array as its elements between brackets, separated by spaces ({@code "teams": "[acme beta]"}). The Lambda event
     * types read them as a map of strings, so a token's claims passed on as JSON arrays would not even deserialise.
     */
    static Map<String, String> asAuthorizerPassesThem(Map<String, Object> claims) {
        Map<String, String> flat = new LinkedHashMap<>();
        claims.forEach((name, value) -> flat.put(
                name,
                value instanceof List<?> list
                        ? "["
                                + String.join(
                                        " ", list.stream().map(String::valueOf).toList()) + "]"
                        : String.valueOf(value)));
        return flat;
    }

    /** The claims of an RS256 token for {@code sub} in {@code teams}, valid for an hour. */
    static Map<String, Object> claims(String issuer, String sub, List<String> teams) {
        long now = Instant.now().getEpochSecond();
        return Map.of("iss", issuer, "sub", sub, "teams", teams, "iat", now, "exp", now + 3600);
    }

    /** {@code claims} signed with {@code key} (RS256). */
    static String token(KeyPair key, Map<String, Object> claims)
            throws GeneralSecurityException, JsonProcessingException {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = b64.encodeToString(JSON.writeValueAsBytes(claims));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key.getPrivate());
        rsa.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
        return header + "." + payload + "." + b64.encodeToString(rsa.sign());
    }

    /** The public half of {@code key} as {@code CAIRN_AUTH_PUBLIC_KEY} takes it. */
    static String pem(KeyPair key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(key.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----";
    }
}
