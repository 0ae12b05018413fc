package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code stockade proxy ca}: the CA certificate for sandbox trust stores, never its key. */
class CaCommandTest {
    @TempDir
    Path dir;

    private String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new ProxyMain());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute(args)).as(err.toString()).isZero();
        return out.toString();
    }

    @Test
    void printsTheCaCertificateItCreatesAndKeepsItAcrossRuns() throws Exception {
        Path data = dir.resolve("data");
        String first = run("ca", "--data-dir", data.toString());
        assertThat(first).startsWith("-----BEGIN CERTIFICATE-----").doesNotContain("PRIVATE KEY");
        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(first.getBytes(StandardCharsets.US_ASCII)));
        assertThat(cert.getBasicConstraints()).as("a CA certificate").isGreaterThanOrEqualTo(0);
        assertThat(run("ca", "--data-dir", data.toString())).as("the same CA on every run").isEqualTo(first);
        assertThat(Files.readString(data.resolve("ca.pem"))).isEqualTo(first);
    }

    @Test
    void writesToAFileWhenAsked() throws Exception {
        Path pem = dir.resolve("trust.pem");
        assertThat(run("ca", "--data-dir", dir.resolve("data").toString(), "--out", pem.toString())).isEmpty();
        assertThat(Files.readString(pem)).startsWith("-----BEGIN CERTIFICATE-----").doesNotContain("PRIVATE KEY");
    }
}
