package dev.stockade.policy.model;

import java.util.List;

/** The {@code piiMasking} object. {@code failOpen} defaults to false: if masking fails, nothing is sent. */
public record PiiMasking(List<MaskingType> types, Boolean unmaskResponses, Boolean failOpen) {

    public PiiMasking {
        types = Lists.copyOrNull(types);
    }
}
