package dev.stockade.api.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * A stand-in for AWS STS speaking its Query protocol: form POSTs of {@code Action=AssumeRole} (signed with the one
 * caller key it knows: the platform's) and {@code Action=GetCallerIdentity} (signed with credentials it issued, session
 * token included: what agent code in a sandbox calls), each SigV4 signature checked by signing the same request again
 * with the signer's secret, answered in STS's XML or its XML error shape. It knows one role and its external ID.
 */
final class StsDouble implements AutoCloseable {
    private static final Pattern AUTH = Pattern.compile("AWS4-HMAC-SHA256 Credential=([^/]+)/(\\d{8})/([^/]+)"
            + "/sts/aws4_request, SignedHeaders=([^,]+), Signature=(\\w+)");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String XMLNS = " xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"";

    /** An AssumeRole request the double accepted. */
    record Assumed(String roleArn, String externalId, String sessionName, int durationSeconds, String accessKeyId) {
    }

    /** A GetCallerIdentity request the double accepted: the issued key that signed it, and the caller it answered. */
    record Called(String accessKeyId, String arn) {
    }

    /** Temporary credentials the double issued: their secret and session token derive from the key id. */
    private record Issued(String accessKeyId, String arn, Instant expires) {
    }

    final List<Assumed> assumed = new CopyOnWriteArrayList<>();
    final List<Called> called = new CopyOnWriteArrayList<>();
    private final Map<String, Issued> issuedKeys = new ConcurrentHashMap<>();
    private final HttpServer server;
    private final String callerKeyId;
    private final String callerSecret;
    private final String roleArn;
    private final String externalId;
    /** When set, how long issued credentials live whatever was asked (real STS never goes below 900 s). */
    private volatile Duration lifetime;
    private int issued;

    StsDouble(String callerKeyId, String callerSecret, String roleArn, String externalId) throws IOException {
        this.callerKeyId = callerKeyId;
        this.callerSecret = callerSecret;
        this.roleArn = roleArn;
        this.externalId = externalId;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Issue credentials that expire {@code lifetime} after issue ({@code null}: as the request asks). */
    void lifetime(Duration lifetime) {
        this.lifetime = lifetime;
    }

    private void handle(HttpExchange ex) throws IOException {
        byte[] body = ex.getRequestBody().readAllBytes();
        Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
        String action = "POST".equals(ex.getRequestMethod()) && "2011-06-15".equals(form.get("Version"))
                ? form.getOrDefault("Action", "") : "";
        String why = switch (action) {
            case "AssumeRole" -> checkAssume(ex, body, form);
            case "GetCallerIdentity" -> checkCaller(ex, body);
            default -> "InvalidAction the double knows only POST AssumeRole and GetCallerIdentity, Version=2011-06-15";
        };
        if (why != null) {
            String[] codeAndMessage = why.split(" ", 2);
            reply(ex, codeAndMessage[0].equals("AccessDenied") ? 403 : 400, "<ErrorResponse" + XMLNS + "><Error>"
                    + "<Type>Sender</Type><Code>" + codeAndMessage[0] + "</Code><Message>" + codeAndMessage[1]
                    + "</Message></Error><RequestId>r-1</RequestId></ErrorResponse>");
        } else if (action.equals("AssumeRole")) {
            assume(ex, form);
        } else {
            identify(ex);
        }
    }

    private void assume(HttpExchange ex, Map<String, String> form) throws IOException {
        int duration = Integer.parseInt(form.getOrDefault("DurationSeconds", "3600"));
        String key;
        synchronized (this) {
            key = "ASIADOUBLE" + String.format("%010d", ++issued);
        }
        String arn = roleArn.replace(":iam::", ":sts::").replace(":role/", ":assumed-role/") + "/"
                + form.get("RoleSessionName");
        Duration life = lifetime;
        Instant expires = Instant.now().plus(life != null ? life : Duration.ofSeconds(duration));
        issuedKeys.put(key, new Issued(key, arn, expires));
        assumed.add(new Assumed(form.get("RoleArn"), form.get("ExternalId"), form.get("RoleSessionName"), duration,
                key));
        reply(ex, 200, "<AssumeRoleResponse" + XMLNS + "><AssumeRoleResult><Credentials><AccessKeyId>" + key
                + "</AccessKeyId><SecretAccessKey>secret-of-" + key + "</SecretAccessKey><SessionToken>session-of-"
                + key + "</SessionToken><Expiration>" + expires + "</Expiration></Credentials><AssumedRoleUser>"
                + "<AssumedRoleId>AROADOUBLE:" + form.get("RoleSessionName") + "</AssumedRoleId><Arn>" + arn
                + "</Arn></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>r-2</RequestId>"
                + "</ResponseMetadata></AssumeRoleResponse>");
    }

    private void identify(HttpExchange ex) throws IOException {
        Matcher m = AUTH.matcher(ex.getRequestHeaders().getFirst("Authorization"));
        Issued k = m.matches() ? issuedKeys.get(m.group(1)) : null;
        called.add(new Called(k.accessKeyId(), k.arn()));
        String account = roleArn.split(":")[4];
        reply(ex, 200, "<GetCallerIdentityResponse" + XMLNS + "><GetCallerIdentityResult><Arn>" + k.arn()
                + "</Arn><UserId>AROADOUBLE:" + k.arn().substring(k.arn().lastIndexOf('/') + 1) + "</UserId>"
                + "<Account>" + account + "</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>r-3"
                + "</RequestId></ResponseMetadata></GetCallerIdentityResponse>");
    }

    /** Why an AssumeRole is refused (STS code, a space, the message), or {@code null}. */
    private String checkAssume(HttpExchange ex, byte[] body, Map<String, String> form) {
        Matcher m = signature(ex);
        if (m == null) {
            return "MissingAuthenticationToken request is not SigV4-signed for sts";
        }
        if (!m.group(1).equals(callerKeyId)) {
            return "InvalidClientTokenId the security token included in the request is invalid";
        }
        if (!m.group(5).equals(expectedSignature(ex, body, m, callerSecret))) {
            return "SignatureDoesNotMatch the request signature we calculated does not match the signature you"
                    + " provided";
        }
        if (!roleArn.equals(form.get("RoleArn")) || !externalId.equals(form.get("ExternalId"))) {
            return "AccessDenied not authorized to perform sts:AssumeRole";
        }
        return null;
    }

    /** Why a GetCallerIdentity is refused: it must be signed with issued, unexpired credentials and their token. */
    private String checkCaller(HttpExchange ex, byte[] body) {
        Matcher m = signature(ex);
        if (m == null) {
            return "MissingAuthenticationToken request is not SigV4-signed for sts";
        }
        Issued k = issuedKeys.get(m.group(1));
        String token = ex.getRequestHeaders().getFirst("X-Amz-Security-Token");
        if (k == null || !("session-of-" + k.accessKeyId()).equals(token)
                || !List.of(m.group(4).split(";")).contains("x-amz-security-token")) {
            return "InvalidClientTokenId the security token included in the request is invalid";
        }
        if (!Instant.now().isBefore(k.expires())) {
            return "ExpiredToken the security token included in the request is expired";
        }
        if (!m.group(5).equals(expectedSignature(ex, body, m, "secret-of-" + k.accessKeyId()))) {
            return "SignatureDoesNotMatch the request signature we calculated does not match the signature you"
                    + " provided";
        }
        return null;
    }

    private static Matcher signature(HttpExchange ex) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        Matcher m = auth == null ? null : AUTH.matcher(auth);
        return m != null && m.matches() ? m : null;
    }

    /** The signature {@code secret} gives the request as received, over the headers the caller says it signed. */
    private String expectedSignature(HttpExchange ex, byte[] body, Matcher auth, String secret) {
        Instant at = Instant.from(AMZ_DATE.parse(ex.getRequestHeaders().getFirst("X-Amz-Date")));
        SdkHttpRequest.Builder req = SdkHttpRequest.builder().method(SdkHttpMethod.POST)
                .uri(URI.create(url() + ex.getRequestURI()));
        for (String h : auth.group(4).split(";")) {
            if (!h.equals("x-amz-date")) {
                req.putHeader(h, ex.getRequestHeaders().getFirst(h));
            }
        }
        String signed = AwsV4HttpSigner.create().sign(r -> r.identity(AwsBasicCredentials.create(auth.group(1),
                        secret)).request(req.build()).payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                .putProperty(AwsV4HttpSigner.REGION_NAME, auth.group(3))
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)))
                .request().firstMatchingHeader("Authorization").orElse("");
        Matcher m = AUTH.matcher(signed);
        return m.matches() ? m.group(5) : "unsigned";
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static void reply(HttpExchange ex, int status, String xml) throws IOException {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/xml");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
