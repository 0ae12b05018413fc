package dev.stockade.proxy;

import dev.stockade.proxy.internal.CertificateAuthority;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stockade proxy ca}: prints the install's interception CA certificate (PEM) for sandbox trust
 * stores, creating the CA first when the data directory holds none (as the proxy's first start would).
 * Only the certificate is ever printed; the key stays in the data directory.
 */
@Command(name = "ca", mixinStandardHelpOptions = true,
        description = "Print the interception CA certificate (PEM) that sandboxes must trust; creates the CA if absent.")
public final class CaCommand implements Callable<Integer> {

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the interception CA lives (default: ${DEFAULT-VALUE}).")
    Path dataDir = ProxyMain.DEFAULT_DATA_DIR;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "Write the PEM to FILE instead of standard output.")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CertificateAuthority ca = CertificateAuthority.loadOrCreate(dataDir, 1);
        String pem = Files.readString(ca.certificatePath());
        if (out == null) {
            PrintWriter w = spec.commandLine().getOut();
            w.print(pem);
            w.flush();
        } else {
            Files.writeString(out, pem);
            spec.commandLine().getErr().println("stockade-proxy: wrote the CA certificate to " + out);
        }
        return 0;
    }
}
