package dev.stockade.pii;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.pii.internal.BodyMasker;
import dev.stockade.pii.internal.Detector;
import dev.stockade.pii.internal.RequestScan;
import java.io.IOException;
import java.util.concurrent.CancellationException;

/**
 * Masks the personal data a policy names in inference requests and hands back a {@link Restorer} bound to
 * that request. Immutable and thread-safe: one masker per policy serves every request; each call has its own
 * placeholders. Callers that need timeouts and health run it through a {@link MaskingWorker}.
 */
public final class PiiMasker {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final MaskingSettings settings;
    private final Detector detector;

    private PiiMasker(MaskingSettings settings) {
        this.settings = settings;
        this.detector = Detector.forTypes(settings.types());
    }

    /** A masker for {@code settings}; loads the gazetteers and model on first use of PERSON or LOCATION. */
    public static PiiMasker create(MaskingSettings settings) {
        return new PiiMasker(settings);
    }

    public MaskingSettings settings() {
        return settings;
    }

    /**
     * The request body with the text fields of {@code format} masked.
     *
     * @throws MaskingException {@code INVALID_BODY} if the body is not a JSON object, {@code INTERNAL} if a
     *                          recogniser failed
     */
    public MaskedBody mask(byte[] body, WireFormat format) throws MaskingException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new MaskingException(MaskingException.Kind.INVALID_BODY,
                    "request body is not valid JSON at line " + e.getLocation().getLineNr());
        } catch (IOException e) {
            throw new MaskingException(MaskingException.Kind.INVALID_BODY, "request body cannot be read");
        }
        if (root == null || !root.isObject()) {
            throw new MaskingException(MaskingException.Kind.INVALID_BODY, "request body must be a JSON object");
        }
        RequestScan scan = new RequestScan(detector, settings.budget());
        try {
            new BodyMasker(JSON, scan).mask(root, format);
            return new MaskedBody(JSON.writeValueAsBytes(root), restorer(scan), scan.truncations(), scan.counts());
        } catch (CancellationException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new MaskingException(MaskingException.Kind.INTERNAL,
                    "masking failed: " + e.getClass().getSimpleName(), e);
        }
    }

    /** One text masked on its own (a prompt outside a wire format, a log line); reported at pointer "". */
    public MaskedText mask(String text) {
        RequestScan scan = new RequestScan(detector, settings.budget());
        String masked = scan.mask(text, "");
        return new MaskedText(masked, restorer(scan), scan.truncations(), scan.counts());
    }

    private Restorer restorer(RequestScan scan) {
        return settings.unmaskResponses() ? new Restorer(scan.book().originals()) : Restorer.NONE;
    }
}
