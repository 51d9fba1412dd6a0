/// Placeholder so the module builds before its code lands.
enum XMLKitModule {}
