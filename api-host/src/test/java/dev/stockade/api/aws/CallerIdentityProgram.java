package dev.stockade.api.aws;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * Agent code as a user writes it, run inside a real sandbox by {@link AwsSdkInSandboxTest}: the official STS client
 * with nothing configured in code, so the SDK's default chains find the region, the endpoint and the container
 * credentials in the sandbox's environment. Prints the caller once per call asked for, or why the SDK failed.
 */
public final class CallerIdentityProgram {
    private CallerIdentityProgram() {
    }

    /** {@code args[0]}: how many GetCallerIdentity calls to make with one client. */
    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        try (StsClient sts = StsClient.create()) {
            for (int i = 0; i < calls; i++) {
                System.out.println("caller " + sts.getCallerIdentity().arn());
            }
        } catch (SdkException e) {
            System.out.println("failed " + e.getMessage());
            System.exit(2);
        }
    }
}
