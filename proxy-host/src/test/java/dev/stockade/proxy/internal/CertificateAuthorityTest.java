package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {

    @Test
    void aRestartLoadsTheSameCaAndStillMints(@TempDir Path dir) throws Exception {
        CertificateAuthority first = CertificateAuthority.loadOrCreate(dir, 8);
        CertificateAuthority second = CertificateAuthority.loadOrCreate(dir, 8);
        assertThat(second.certificate()).isEqualTo(first.certificate());
        assertThat(second.serverContext("api.example.com")).isNotNull();
        assertThat(Files.readString(dir.resolve("ca-key.pem"))).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca-key.pem"))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }

    @Test
    void leavesAreCachedWithinTheBound(@TempDir Path dir) throws Exception {
        CertificateAuthority ca = CertificateAuthority.loadOrCreate(dir, 2);
        assertThat(ca.serverContext("a.example")).isSameAs(ca.serverContext("a.example"));
        for (int i = 0; i < 10; i++) {
            ca.serverContext("h" + i + ".example");
        }
        assertThat(ca.cachedLeaves()).isLessThanOrEqualTo(2);
    }
}
