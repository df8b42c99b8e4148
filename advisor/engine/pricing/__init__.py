"""Money: billing slots, units as sold, an option's month, China reach, owned hardware, the
billing asked for."""
