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
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * A stand-in for AWS STS speaking its Query protocol: a form POST of {@code Action=AssumeRole&Version=2011-06-15}
 * whose SigV4 signature it checks by signing the same request again with the caller's secret, answered with the XML
 * {@code AssumeRoleResponse} or STS's XML error shape. It knows one role, its external ID and one caller key.
 */
final class StsDouble implements AutoCloseable {
    private static final Pattern AUTH = Pattern.compile("AWS4-HMAC-SHA256 Credential=([^/]+)/(\\d{8})/([^/]+)"
            + "/sts/aws4_request, SignedHeaders=([^,]+), Signature=(\\w+)");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /** An AssumeRole request the double accepted. */
    record Assumed(String roleArn, String externalId, String sessionName, int durationSeconds, String accessKeyId) {
    }

    final List<Assumed> assumed = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final String callerKeyId;
    private final String callerSecret;
    private final String roleArn;
    private final String externalId;
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

    private void handle(HttpExchange ex) throws IOException {
        byte[] body = ex.getRequestBody().readAllBytes();
        Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
        String why = check(ex, body, form);
        if (why != null) {
            String[] codeAndMessage = why.split(" ", 2);
            reply(ex, codeAndMessage[0].equals("AccessDenied") ? 403 : 400, "<ErrorResponse xmlns=\"https://sts"
                    + ".amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type><Code>" + codeAndMessage[0]
                    + "</Code><Message>" + codeAndMessage[1] + "</Message></Error><RequestId>r-1</RequestId>"
                    + "</ErrorResponse>");
            return;
        }
        int duration = Integer.parseInt(form.getOrDefault("DurationSeconds", "3600"));
        String key;
        synchronized (this) {
            key = "ASIADOUBLE" + String.format("%010d", ++issued);
        }
        assumed.add(new Assumed(form.get("RoleArn"), form.get("ExternalId"), form.get("RoleSessionName"), duration,
                key));
        Instant expires = Instant.now().plusSeconds(duration);
        reply(ex, 200, "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
                + "<Credentials><AccessKeyId>" + key + "</AccessKeyId><SecretAccessKey>secret-of-" + key
                + "</SecretAccessKey><SessionToken>session-of-" + key + "</SessionToken><Expiration>" + expires
                + "</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROADOUBLE:" + form.get("RoleSessionName")
                + "</AssumedRoleId><Arn>" + roleArn.replace(":iam::", ":sts::").replace(":role/", ":assumed-role/")
                + "/" + form.get("RoleSessionName") + "</Arn></AssumedRoleUser></AssumeRoleResult>"
                + "<ResponseMetadata><RequestId>r-2</RequestId></ResponseMetadata></AssumeRoleResponse>");
    }

    /** Why the request is refused (STS code, a space, the message), or {@code null}. */
    private String check(HttpExchange ex, byte[] body, Map<String, String> form) {
        if (!"POST".equals(ex.getRequestMethod()) || !"AssumeRole".equals(form.get("Action"))
                || !"2011-06-15".equals(form.get("Version"))) {
            return "InvalidAction the double knows only POST Action=AssumeRole Version=2011-06-15";
        }
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        Matcher m = auth == null ? null : AUTH.matcher(auth);
        if (m == null || !m.matches()) {
            return "MissingAuthenticationToken request is not SigV4-signed for sts";
        }
        if (!m.group(1).equals(callerKeyId)) {
            return "InvalidClientTokenId the security token included in the request is invalid";
        }
        if (!m.group(5).equals(expectedSignature(ex, body, m.group(3), m.group(4)))) {
            return "SignatureDoesNotMatch the request signature we calculated does not match the signature you"
                    + " provided";
        }
        if (!roleArn.equals(form.get("RoleArn")) || !externalId.equals(form.get("ExternalId"))) {
            return "AccessDenied not authorized to perform sts:AssumeRole";
        }
        return null;
    }

    /** The signature the caller's secret gives the request as received, over the headers it says it signed. */
    private String expectedSignature(HttpExchange ex, byte[] body, String region, String signedHeaders) {
        Instant at = Instant.from(AMZ_DATE.parse(ex.getRequestHeaders().getFirst("X-Amz-Date")));
        SdkHttpRequest.Builder req = SdkHttpRequest.builder().method(SdkHttpMethod.POST)
                .uri(URI.create(url() + ex.getRequestURI()));
        for (String h : signedHeaders.split(";")) {
            if (!h.equals("x-amz-date")) {
                req.putHeader(h, ex.getRequestHeaders().getFirst(h));
            }
        }
        String signed = AwsV4HttpSigner.create().sign(r -> r.identity(AwsBasicCredentials.create(callerKeyId,
                        callerSecret)).request(req.build()).payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
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
