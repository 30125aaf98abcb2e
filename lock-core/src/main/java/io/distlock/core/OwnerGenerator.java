package io.distlock.core;

/**
 * Makes a new owner token for every acquisition. Only the owner may renew or release, so tokens must be unique and
 * unguessable.
 */
@FunctionalInterface
public interface OwnerGenerator {

    /**
     * Returns a token no other acquisition has used.
     *
     * @return a new owner token of at most 255 characters
     */
    String nextOwner();
}
