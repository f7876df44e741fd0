/* pi rounded to double, for every file that needs it; pi / 2 and 2 pi are
   exact multiples of it. */
#ifndef PE_PI_H
#define PE_PI_H

#define PE_PI 3.14159265358979323846

#endif
