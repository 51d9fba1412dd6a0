// Placeholder: the mutation fuzz driver lands here.
print("iapkg-fuzz: not built yet")
