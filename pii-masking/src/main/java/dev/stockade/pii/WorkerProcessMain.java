package dev.stockade.pii;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The child side of a {@link ProcessWorker}: reads requests from standard input, masks them and writes the
 * answers to standard output, until its input closes. Arguments: types (comma-separated), unmaskResponses,
 * failOpen, maxCharsPerRequest, windowChars, windowOverlap.
 */
public final class WorkerProcessMain {

    private WorkerProcessMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 6) {
            System.err.println("usage: WorkerProcessMain TYPES UNMASK FAIL_OPEN MAX_CHARS WINDOW OVERLAP");
            System.exit(2);
        }
        List<String> types = Arrays.asList(args[0].split(","));
        MaskingSettings settings = MaskingSettings.fromPolicy(types, Boolean.parseBoolean(args[1]),
                Boolean.parseBoolean(args[2])).withBudget(new ScanBudget(Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), Integer.parseInt(args[5])));
        PiiMasker masker = PiiMasker.create(settings);
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out));
        out.writeUTF("ready");
        out.flush();
        while (true) {
            WireFormat format;
            byte[] body;
            try {
                format = WireFormat.valueOf(in.readUTF());
                body = WorkerProtocol.readBody(in);
            } catch (EOFException closed) {
                return;
            }
            try {
                WorkerProtocol.writeAnswer(out, masker.mask(body, format));
            } catch (MaskingException e) {
                WorkerProtocol.writeFailure(out, e);
            }
        }
    }
}
