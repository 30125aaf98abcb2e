package io.distlock.core;

import java.util.Objects;

/**
 * One acquisition of one resource: what renewals and releases are addressed to.
 *
 * @param resource the locked resource's name
 * @param owner the owner token of the acquisition
 */
public record LeaseKey(String resource, String owner) {

    public LeaseKey {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(owner, "owner");
    }
}
