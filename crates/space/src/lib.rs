//! OpenZFS space arithmetic: what zpool list and zfs list show, and what data really costs.
